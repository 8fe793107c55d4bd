package io.parry.openapi.internal;

import io.parry.http.HttpRequest;

/**
 * The base URL a client used to reach the service: {@code X-Forwarded-Proto}, {@code X-Forwarded-Host}
 * and {@code X-Forwarded-Prefix} when a proxy set them (their first values), else {@code http} and
 * {@code Host}. A prefix must start with a slash, or it is ignored.
 */
public final class ServerUrl {
    private ServerUrl() {}

    public static String of(HttpRequest request) {
        String proto = first(request.headers().get("x-forwarded-proto"));
        String host = first(request.headers().get("x-forwarded-host"));
        String prefix = first(request.headers().get("x-forwarded-prefix"));
        if (host == null) {
            host = request.authority() != null ? request.authority() : "localhost";
        }
        if (prefix == null || !prefix.startsWith("/")) {
            prefix = "";
        } else if (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        return (proto != null ? proto : "http") + "://" + host + prefix;
    }

    private static String first(String list) {
        if (list == null) {
            return null;
        }
        int comma = list.indexOf(',');
        String value = (comma < 0 ? list : list.substring(0, comma)).trim();
        return value.isEmpty() ? null : value;
    }
}
