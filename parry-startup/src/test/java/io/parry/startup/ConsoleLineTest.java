package io.parry.startup;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConsoleLineTest {
    private static final String FULL = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} - %msg%n";
    private static final String BARE = "%msg%n";

    private final LoggerContext context = new LoggerContext();

    @ParameterizedTest
    @ValueSource(strings = {"TRACE", "DEBUG", "INFO", "WARN", "ERROR"})
    void writesWhatItsPatternWritesAtEachLevel(String level) {
        LoggingEvent event = event(Level.toLevel(level), "io.parry.server.internal.ServerEngine", null);

        assertThat(line(ConsoleLine.full(), event)).isEqualTo(pattern(FULL, event));
    }

    @Test
    void writesTheStackTraceOfAThrowableAsThePatternDoes() {
        LoggingEvent event =
                event(Level.WARN, "Short", new UncheckedIOException("read failed", new IOException("reset by peer")));

        assertThat(line(ConsoleLine.full(), event)).isEqualTo(pattern(FULL, event));
        assertThat(line(ConsoleLine.bare(), event)).isEqualTo(pattern(BARE, event));
    }

    @Test
    void writesTheBareMessageForTheAccessLog() {
        LoggingEvent event = event(Level.INFO, "parry.access", null);

        assertThat(line(ConsoleLine.bare(), event)).isEqualTo(pattern(BARE, event));
    }

    @Test
    void writesTheLocalTimeOfDayWithMilliseconds() {
        long millis = Instant.parse("2026-03-29T01:59:59.007Z").toEpochMilli();
        LoggingEvent event = event(Level.INFO, "x", null);
        event.setTimeStamp(millis);

        String time = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneId.systemDefault())
                .toLocalTime()
                .toString();
        assertThat(line(ConsoleLine.full(), event)).startsWith(time.substring(0, 12) + " INFO  [main] x - ");
        assertThat(line(ConsoleLine.full(), event)).isEqualTo(pattern(FULL, event));
    }

    private LoggingEvent event(Level level, String logger, Throwable thrown) {
        LoggingEvent event = new LoggingEvent(
                getClass().getName(), context.getLogger(logger), level, "answered {} in {} ms", thrown, new Object[] {
                    "GET /", 3
                });
        event.setThreadName("main");
        return event;
    }

    private String line(ConsoleLine layout, LoggingEvent event) {
        layout.setContext(context);
        layout.start();
        return layout.doLayout(event);
    }

    private String pattern(String pattern, LoggingEvent event) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.setPattern(pattern);
        layout.start();
        return layout.doLayout(event);
    }
}
