package io.parry.gateway.internal.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Answer with a fixed response (YAML {@code respond}).
 *
 * @param status the status, 200..599 (default 200)
 * @param body the body text, sent as UTF-8; empty for none (the default)
 * @param contentType the {@code Content-Type} (default {@code text/plain; charset=utf-8})
 * @param headers further response fields, in declaration order
 */
public record RespondAction(int status, String body, String contentType, Map<String, String> headers)
        implements RouteAction {

    /** Copies the headers, keeping their order. */
    public RespondAction {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }
}
