package io.parry.demo.todo;

import io.parry.http.HttpRequest;

/**
 * The absolute URL the client used to reach the service: {@code X-Forwarded-Proto} and
 * {@code X-Forwarded-Host} when a proxy set them (their first values), else {@code http} and
 * {@code Host}.
 */
final class BaseUrl {
    private BaseUrl() {}

    static String of(HttpRequest request) {
        String proto = first(request.headers().get("x-forwarded-proto"));
        String host = first(request.headers().get("x-forwarded-host"));
        if (host == null) {
            host = request.authority() != null ? request.authority() : "localhost";
        }
        return (proto != null ? proto : "http") + "://" + host;
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
