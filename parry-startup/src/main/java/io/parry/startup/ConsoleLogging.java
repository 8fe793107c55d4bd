package io.parry.startup;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's configuration for a Parry process: INFO and above to the console, as the pattern {@code
 * %d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} - %msg%n} writes them, configured in code because
 * parsing a {@code logback.xml} loads an XML parser and hundreds of classes, a tenth of a second of
 * start-up, and written by {@link ConsoleLine} rather than a {@code PatternLayout}, whose set-up costs
 * tens of milliseconds more. The access log's logger {@code parry.access} has a console appender of its own
 * that writes the bare message, so each of its lines is the access log line alone (pure JSON by
 * default), and does not pass its lines on to the root's.
 *
 * <p>Logback finds it through {@code META-INF/services} when this module and {@code logback-classic}
 * are on the class path. An application's own configuration wins: a {@code
 * -Dlogback.configurationFile}, or a {@code logback-test.xml} or {@code logback.xml} on the class
 * path.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_TOP_PRIORITY)
public final class ConsoleLogging extends ContextAwareBase implements Configurator {
    private static final String[] OWN_CONFIGURATIONS = {"logback-test.xml", "logback.xml"};
    private static volatile boolean configured;

    /**
     * Whether this configuration is in use, so that logs go to the console as it sets them; false
     * until SLF4J is first used.
     */
    public static boolean configured() {
        return configured;
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (hasOwnConfiguration()) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        configured = true;
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console(context, "console", ConsoleLine.full()));
        Logger access = context.getLogger("parry.access");
        access.setAdditive(false);
        access.addAppender(console(context, "access", ConsoleLine.bare()));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private static boolean hasOwnConfiguration() {
        if (System.getProperty("logback.configurationFile") != null) {
            return true;
        }
        ClassLoader loader = ConsoleLogging.class.getClassLoader();
        for (String name : OWN_CONFIGURATIONS) {
            if (loader.getResource(name) != null) {
                return true;
            }
        }
        return false;
    }

    private static ConsoleAppender<ILoggingEvent> console(LoggerContext context, String name, ConsoleLine line) {
        line.setContext(context);
        line.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(line);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName(name);
        console.setEncoder(encoder);
        console.start();
        return console;
    }
}
