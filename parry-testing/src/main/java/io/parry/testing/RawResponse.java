package io.parry.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A response as read off the wire by {@link RawConnection}. Header names are kept as sent. */
public final class RawResponse {
    private final String version;
    private final int status;
    private final List<Map.Entry<String, String>> headers;
    private final byte[] body;
    private final List<Map.Entry<String, String>> trailers;

    RawResponse(
            String version,
            int status,
            List<Map.Entry<String, String>> headers,
            byte[] body,
            List<Map.Entry<String, String>> trailers) {
        this.version = version;
        this.status = status;
        this.headers = List.copyOf(headers);
        this.body = body;
        this.trailers = List.copyOf(trailers);
    }

    /** The protocol version of the status line, for example {@code HTTP/1.1}. */
    public String version() {
        return version;
    }

    /** The status code. */
    public int status() {
        return status;
    }

    /** The first value of the named header (case-insensitive), or {@code null}. */
    public String header(String name) {
        return first(headers, name);
    }

    /** Every value of the named header, in order. */
    public List<String> headers(String name) {
        List<String> values = new ArrayList<>();
        for (Map.Entry<String, String> header : headers) {
            if (header.getKey().equalsIgnoreCase(name)) {
                values.add(header.getValue());
            }
        }
        return values;
    }

    /** The first value of the named trailer field, or {@code null}. */
    public String trailer(String name) {
        return first(trailers, name);
    }

    /** The body bytes (de-chunked). */
    public byte[] body() {
        return body.clone();
    }

    /** The body as UTF-8 text. */
    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    RawResponse withBody(byte[] body, List<Map.Entry<String, String>> trailers) {
        return new RawResponse(version, status, headers, body, trailers);
    }

    List<Map.Entry<String, String>> headerList() {
        return headers;
    }

    private static String first(List<Map.Entry<String, String>> fields, String name) {
        for (Map.Entry<String, String> field : fields) {
            if (field.getKey().equalsIgnoreCase(name)) {
                return field.getValue();
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return version + " " + status + " " + headers.toString().toLowerCase(Locale.ROOT) + " (" + body.length
                + " bytes)";
    }
}
