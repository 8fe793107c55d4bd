package io.parry.auth;

import static java.util.Objects.requireNonNull;

import io.parry.auth.internal.IdentityContext;
import io.parry.server.RequestContext;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who a request was verified to come from: the scheme that verified it, a subject, the verified claims
 * and the scopes they grant. The authentication filters of this module hand it to the handlers they
 * wrap through the request's context:
 *
 * <pre>{@code
 * Handler me = Handler.sync((ctx, request) -> HttpResponse.ofText(
 *         "hello " + Identity.of(ctx).map(Identity::subject).orElse("stranger")));
 * Handler app = me.with(jwt);
 * }</pre>
 *
 * <p>For an API key the subject is the key's name and for HTTP Basic the user name; their claims hold
 * only {@code sub}. Immutable.
 *
 * @param scheme how the request was verified: {@code Bearer}, {@code ApiKey} or {@code Basic}
 * @param subject the {@code sub} claim, the key's name or the user name; empty when a token has none
 * @param claims the verified claims, values as JSON gives them (String, Long, Double, Boolean, List, Map)
 * @param scopes the scopes of the {@code scope} claim (space-separated, RFC 8693) or the {@code scp} claim
 */
public record Identity(String scheme, String subject, Map<String, Object> claims, Set<String> scopes) {

    /** Copies the collections. */
    public Identity {
        requireNonNull(scheme, "scheme");
        requireNonNull(subject, "subject");
        claims = Collections.unmodifiableMap(new LinkedHashMap<>(claims));
        scopes = Set.copyOf(scopes);
    }

    /**
     * The identity an authentication filter verified for this request, or empty when no filter of this
     * module wraps the code that has this context: route filters and handlers get the context the
     * filter passes on, so put the filter on a route or around the router's handlers.
     */
    public static Optional<Identity> of(RequestContext ctx) {
        requireNonNull(ctx, "ctx");
        return ctx instanceof IdentityContext identified ? Optional.of(identified.identity()) : Optional.empty();
    }

    /** A claim as text: a string as it is, a list as its elements joined with commas, a number in decimal. */
    public Optional<String> claimText(String name) {
        Object value = claims.get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof List<?> list) {
            StringBuilder text = new StringBuilder();
            for (Object element : list) {
                text.append(text.length() == 0 ? "" : ",").append(element);
            }
            return Optional.of(text.toString());
        }
        if (value instanceof Date date) {
            return Optional.of(Long.toString(date.getTime() / 1000));
        }
        return Optional.of(value.toString());
    }
}
