package io.parry.openapi.internal;

import io.parry.auth.ApiKeyFilter;
import io.parry.auth.JwtFilter;
import io.parry.server.Filter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What parry-auth's filters around an operation ask of a client, as OpenAPI security schemes and one
 * operation's {@code security}: every filter must admit the request (the schemes of a requirement
 * object), and an {@link ApiKeyFilter} that reads a field or a query parameter is satisfied by either
 * (two requirement objects). Other filters require nothing.
 *
 * <p>Filters are told apart by class name before any cast, so a service without parry-auth (an optional
 * dependency of this module) never loads its classes.
 */
public final class Authentication {
    private final Map<String, Map<String, Object>> schemes = new LinkedHashMap<>();
    private final List<Map<String, List<String>>> requirements;
    private final boolean forbids;
    private final boolean checksSecrets;

    private Authentication(List<Filter> filters) {
        List<Map<String, List<String>>> all = List.of(Map.of());
        boolean forbidding = false;
        boolean hashing = false;
        for (Filter filter : filters) {
            List<Map<String, List<String>>> alternatives = alternatives(filter);
            if (!alternatives.isEmpty()) {
                all = combine(all, alternatives);
                boolean jwt = filter.getClass().getName().equals("io.parry.auth.JwtFilter");
                forbidding |= jwt;
                hashing |= !jwt;
            }
        }
        this.requirements = all.size() == 1 && all.get(0).isEmpty() ? List.of() : all;
        this.forbids = forbidding;
        this.checksSecrets = hashing;
    }

    /** The authentication the filters, outermost first, require. */
    public static Authentication of(List<Filter> filters) {
        return new Authentication(filters);
    }

    /** The operation's {@code security}: any one of these objects, each naming schemes that all apply; empty for none. */
    public List<Map<String, List<String>>> requirements() {
        return requirements;
    }

    /** The schemes the requirements name, for {@code components/securitySchemes}. */
    public Map<String, Map<String, Object>> schemes() {
        return schemes;
    }

    /** Whether a client with valid credentials may still get 403 (a JWT without the scopes or claims asked for). */
    public boolean forbids() {
        return forbids;
    }

    /**
     * Whether an API key or a password is checked, which a busy service refuses with 503 and {@code
     * Retry-After} rather than queueing.
     */
    public boolean checksSecrets() {
        return checksSecrets;
    }

    private List<Map<String, List<String>>> alternatives(Filter filter) {
        switch (filter.getClass().getName()) {
            case "io.parry.auth.JwtFilter" -> {
                // RFC 6750, section 2.1: the token travels as Authorization: Bearer.
                scheme("bearerJwt", ordered("type", "http", "scheme", "bearer", "bearerFormat", "JWT"));
                return List.of(Map.of("bearerJwt", List.copyOf(((JwtFilter) filter).requiredScopes())));
            }
            case "io.parry.auth.BasicAuthFilter" -> {
                scheme("basic", ordered("type", "http", "scheme", "basic"));
                return List.of(Map.of("basic", List.of()));
            }
            case "io.parry.auth.ApiKeyFilter" -> {
                ApiKeyFilter apiKey = (ApiKeyFilter) filter;
                List<Map<String, List<String>>> either = new ArrayList<>();
                if (apiKey.header() != null) {
                    either.add(Map.of(apiKey("header", apiKey.header()), List.of()));
                }
                if (apiKey.queryParam() != null) {
                    either.add(Map.of(apiKey("query", apiKey.queryParam()), List.of()));
                }
                return either;
            }
            default -> {
                return List.of();
            }
        }
    }

    private String apiKey(String in, String name) {
        String scheme = "apiKey-" + in + "-" + name.replaceAll("[^A-Za-z0-9._-]", "_");
        scheme(scheme, ordered("type", "apiKey", "in", in, "name", name));
        return scheme;
    }

    private void scheme(String name, Map<String, Object> scheme) {
        schemes.putIfAbsent(name, scheme);
    }

    private static Map<String, Object> ordered(String... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** Each requirement so far with each alternative of the next filter: both must hold. */
    private static List<Map<String, List<String>>> combine(
            List<Map<String, List<String>>> requirements, List<Map<String, List<String>>> alternatives) {
        List<Map<String, List<String>>> combined = new ArrayList<>();
        for (Map<String, List<String>> requirement : requirements) {
            for (Map<String, List<String>> alternative : alternatives) {
                Map<String, List<String>> both = new LinkedHashMap<>(requirement);
                alternative.forEach((scheme, scopes) -> both.merge(scheme, scopes, Authentication::union));
                combined.add(both);
            }
        }
        return combined;
    }

    private static List<String> union(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        b.stream().filter(scope -> !all.contains(scope)).forEach(all::add);
        return all;
    }
}
