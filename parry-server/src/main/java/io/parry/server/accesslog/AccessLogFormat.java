package io.parry.server.accesslog;

import io.parry.server.RequestLog;

/**
 * Turns a {@link RequestLog} into one access log line. Called on the access log's writer thread, one
 * line at a time, never on an event loop.
 */
@FunctionalInterface
public interface AccessLogFormat {

    /** JSON lines for Splunk and ELK; see {@link AccessLog#json()} for the fields. */
    static AccessLogFormat json() {
        return JsonLinesFormat.INSTANCE;
    }

    /** The Apache/NCSA combined log format; see {@link AccessLog#combined()}. */
    static AccessLogFormat combined() {
        return CombinedLogFormat.INSTANCE;
    }

    /**
     * Appends the line for {@code log} to {@code line}, which is empty and is reused for the next
     * line; without a line terminator.
     */
    void format(RequestLog log, StringBuilder line);
}
