package io.parry.gateway.internal.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a request must have besides its path for a route to take it: one of the methods ({@code GET}
 * also admits {@code HEAD}), the host (case-insensitive; the request's port is ignored unless the
 * condition names one), and each header with exactly this value. An absent condition admits
 * anything. Immutable; a check allocates nothing.
 */
public final class Conditions {
    /** No conditions. */
    public static final Conditions NONE = new Conditions(new HttpMethod[0], null, new String[0], new String[0]);

    private final HttpMethod[] methods;
    private final String host;
    private final boolean hostHasPort;
    private final String[] headerNames;
    private final String[] headerValues;

    private Conditions(HttpMethod[] methods, String host, String[] headerNames, String[] headerValues) {
        this.methods = methods;
        this.host = host;
        this.hostHasPort = host != null && hasPort(host);
        this.headerNames = headerNames;
        this.headerValues = headerValues;
    }

    /**
     * These conditions.
     *
     * @param methods the accepted methods, empty for any
     * @param host the host, or {@code null} for any
     * @param headers header names and the exact value each must have
     */
    public static Conditions of(List<HttpMethod> methods, String host, Map<String, String> headers) {
        requireNonNull(methods, "methods");
        requireNonNull(headers, "headers");
        if (methods.isEmpty() && host == null && headers.isEmpty()) {
            return NONE;
        }
        List<String> names = new ArrayList<>(headers.keySet());
        List<String> values = new ArrayList<>();
        names.forEach(name -> values.add(headers.get(name)));
        return new Conditions(
                methods.toArray(new HttpMethod[0]),
                host == null ? null : host.toLowerCase(Locale.ROOT),
                names.toArray(new String[0]),
                values.toArray(new String[0]));
    }

    /** Whether the request meets every condition. */
    public boolean matches(HttpRequest request) {
        return allows(request.method()) && matchesIgnoringMethod(request);
    }

    /** Whether the request meets the host and header conditions. */
    public boolean matchesIgnoringMethod(HttpRequest request) {
        return (host == null || hostMatches(request.authority())) && headersMatch(request.headers());
    }

    /** Whether the method condition admits this method. */
    public boolean allows(HttpMethod method) {
        if (methods.length == 0) {
            return true;
        }
        for (HttpMethod allowed : methods) {
            if (allowed.equals(method) || (allowed.equals(HttpMethod.GET) && method.equals(HttpMethod.HEAD))) {
                return true;
            }
        }
        return false;
    }

    /** The accepted methods; empty for any. */
    public List<HttpMethod> methods() {
        return List.of(methods);
    }

    /** The host condition, lower case, or {@code null}. */
    public String host() {
        return host;
    }

    private boolean hostMatches(String authority) {
        if (authority == null) {
            return false;
        }
        int end = authority.length();
        if (!hostHasPort) {
            int colon = authority.lastIndexOf(':');
            if (colon > authority.lastIndexOf(']')) {
                end = colon;
            }
        }
        return end == host.length() && authority.regionMatches(true, 0, host, 0, end);
    }

    private boolean headersMatch(HttpHeaders headers) {
        for (int i = 0; i < headerNames.length; i++) {
            if (!hasValue(headers, headerNames[i], headerValues[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasValue(HttpHeaders headers, String name, String value) {
        for (int i = 0; i < headers.size(); i++) {
            if (headers.name(i).equalsIgnoreCase(name) && headers.value(i).equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasPort(String host) {
        int colon = host.lastIndexOf(':');
        return colon > host.lastIndexOf(']');
    }
}
