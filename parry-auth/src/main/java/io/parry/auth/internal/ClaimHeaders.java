package io.parry.auth.internal;

import io.parry.auth.Identity;
import io.parry.http.HttpRequest;
import java.util.Map;

/**
 * Puts verified claims into request fields for upstreams, after removing every field of those names
 * the client sent, so an upstream never mistakes a client's field for a verified claim.
 */
public final class ClaimHeaders {
    private ClaimHeaders() {}

    /** The request with each claim of {@code claimToHeader} in its field; a claim absent or unsafe as a field value sends none. */
    public static HttpRequest apply(HttpRequest request, Identity identity, Map<String, String> claimToHeader) {
        if (claimToHeader.isEmpty()) {
            return request;
        }
        return request.mapHeaders(headers -> {
            claimToHeader.values().forEach(headers::remove);
            if (identity == null) {
                return;
            }
            claimToHeader.forEach((claim, header) -> identity.claimText(claim)
                    .filter(ClaimHeaders::isSafeValue)
                    .ifPresent(value -> headers.set(header, value)));
        });
    }

    /** Strips the forwarded fields only: for a request refused before any identity. */
    public static HttpRequest strip(HttpRequest request, Map<String, String> claimToHeader) {
        return apply(request, null, claimToHeader);
    }

    private static boolean isSafeValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f) {
                return false;
            }
        }
        return true;
    }
}
