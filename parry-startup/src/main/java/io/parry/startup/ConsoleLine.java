package io.parry.startup;

import ch.qos.logback.classic.pattern.TargetLengthBasedClassNameAbbreviator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.util.TimeZone;

/**
 * Writes an event as the console line that the pattern {@code %d{HH:mm:ss.SSS} %-5level [%thread]
 * %logger{20} - %msg%n} gives, or, {@linkplain #bare() bare}, as {@code %msg%n}; followed, as with a
 * pattern, by the stack trace of an event's throwable. It does so without {@code PatternLayout},
 * whose registry of a hundred converters and pattern parser cost a process tens of milliseconds of
 * start-up. Thread-safe; the time is the local time of the zone that is the default when it is made.
 */
final class ConsoleLine extends LayoutBase<ILoggingEvent> {
    private static final int LOGGER_LENGTH = 20;
    private static final int LEVEL_WIDTH = 5;
    private static final long MILLIS_PER_DAY = 24 * 60 * 60 * 1000L;

    private final boolean bare;
    private final TimeZone zone = TimeZone.getDefault();
    private final TargetLengthBasedClassNameAbbreviator abbreviator =
            new TargetLengthBasedClassNameAbbreviator(LOGGER_LENGTH);

    private ConsoleLine(boolean bare) {
        this.bare = bare;
    }

    /** Time, level, thread, logger and message. */
    static ConsoleLine full() {
        return new ConsoleLine(false);
    }

    /** The message alone. */
    static ConsoleLine bare() {
        return new ConsoleLine(true);
    }

    @Override
    public String doLayout(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(128);
        if (!bare) {
            appendTime(line, event.getTimeStamp());
            line.append(' ');
            String level = event.getLevel().toString();
            line.append(level);
            for (int i = level.length(); i < LEVEL_WIDTH; i++) {
                line.append(' ');
            }
            line.append(" [")
                    .append(event.getThreadName())
                    .append("] ")
                    .append(abbreviator.abbreviate(event.getLoggerName()))
                    .append(" - ");
        }
        line.append(event.getFormattedMessage()).append(CoreConstants.LINE_SEPARATOR);
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            line.append(ThrowableProxyUtil.asString(thrown));
        }
        return line.toString();
    }

    private void appendTime(StringBuilder line, long epochMillis) {
        long millisOfDay = Math.floorMod(epochMillis + zone.getOffset(epochMillis), MILLIS_PER_DAY);
        appendTwoDigits(line, millisOfDay / 3_600_000).append(':');
        appendTwoDigits(line, millisOfDay / 60_000 % 60).append(':');
        appendTwoDigits(line, millisOfDay / 1000 % 60).append('.');
        long millis = millisOfDay % 1000;
        line.append((char) ('0' + millis / 100));
        appendTwoDigits(line, millis % 100);
    }

    private static StringBuilder appendTwoDigits(StringBuilder line, long value) {
        return line.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
