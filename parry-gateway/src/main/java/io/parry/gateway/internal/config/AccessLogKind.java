package io.parry.gateway.internal.config;

/** Which access log the gateway writes (YAML {@code accessLog}). */
public enum AccessLogKind {
    /** One JSON object a line, the default. */
    JSON,
    /** The combined log format of Apache httpd and nginx. */
    COMBINED,
    /** No access log. */
    OFF
}
