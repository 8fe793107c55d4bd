package io.parry.json.internal;

import io.parry.http.MediaType;

/**
 * Whether a request's content is JSON we can read: {@code application/json} or any {@code
 * application/*+json} type (RFC 6839, section 3.1), with no {@code charset} or {@code utf-8} (RFC
 * 8259, section 8.1: JSON exchanged between systems is UTF-8), and no content coding.
 */
final class ContentTypes {
    private ContentTypes() {}

    /** Why the content is refused with 415, or {@code null} when it is acceptable. */
    static String refusal(String contentType, String contentEncoding) {
        if (contentEncoding != null && !contentEncoding.equalsIgnoreCase("identity")) {
            return "Content-Encoding " + contentEncoding + " is not supported; send the JSON uncoded.";
        }
        if (contentType == null) {
            return "The request has no Content-Type; expected application/json.";
        }
        if (contentType.equalsIgnoreCase("application/json")) {
            return null; // the common case, without parsing
        }
        MediaType type;
        try {
            type = MediaType.parse(contentType);
        } catch (IllegalArgumentException e) {
            return "The Content-Type is not a media type; expected application/json.";
        }
        if (!type.type().equals("application")
                || !(type.subtype().equals("json") || type.subtype().endsWith("+json"))) {
            return "The Content-Type " + type.type() + "/" + type.subtype()
                    + " is not supported; expected application/json.";
        }
        String charset = type.parameters().get("charset");
        if (charset != null && !charset.equalsIgnoreCase("utf-8")) {
            return "JSON must be sent in UTF-8, not " + charset + ".";
        }
        return null;
    }
}
