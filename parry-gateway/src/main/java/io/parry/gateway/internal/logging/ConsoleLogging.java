package io.parry.gateway.internal.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The gateway's logging: INFO and above to the console, configured in code because parsing a {@code
 * logback.xml} loads an XML parser and hundreds of classes, a tenth of a second of start-up. The
 * access log's logger {@code parry.access} has a console appender of its own that writes the bare
 * message, so each of its lines is the access log line alone (pure JSON by default), and does not
 * pass its lines on to the root's. A {@code -Dlogback.configurationFile} still takes over. Registered
 * through {@code META-INF/services} with the top rank, so it wins over the todo example's
 * configurator, also on the classpath.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_TOP_PRIORITY)
public final class ConsoleLogging extends ContextAwareBase implements Configurator {
    private static volatile boolean configured;

    /**
     * Whether this configuration is in use, so that the gateway's logs go to the console as it sets
     * them; false until SLF4J is first used.
     */
    public static boolean configured() {
        return configured;
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        configured = true;
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console(context, "console", "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} - %msg%n"));
        Logger access = context.getLogger("parry.access");
        access.setAdditive(false);
        access.addAppender(console(context, "access", "%msg%n"));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private static ConsoleAppender<ILoggingEvent> console(LoggerContext context, String name, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName(name);
        console.setEncoder(encoder);
        console.start();
        return console;
    }
}
