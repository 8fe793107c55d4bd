package io.parry.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The status and headers of an HTTP/1.1 response, read by the benchmark clients from a blocking stream.
 *
 * @param status the status code, for example 200
 * @param headers the header fields by lower-case name; repeated fields are joined with {@code ", "}
 */
record ResponseHead(int status, Map<String, String> headers) {
    /** Reads the next final response head from {@code in}, skipping interim 1xx responses. */
    static ResponseHead read(InputStream in) throws IOException {
        ResponseHead head;
        do {
            head = new ResponseHead(status(HttpLine.read(in)), fields(in));
        } while (head.status() < 200);
        return head;
    }

    /** Returns {@code true} if the server announced it will close the connection after this response. */
    boolean closes() {
        return headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT).contains("close");
    }

    /**
     * Returns the body of this response as a stream that ends where the body ends, per RFC 9112 section 6.3.
     *
     * @throws IOException if the body is delimited by the connection closing, which the clients do not expect
     */
    InputStream body(InputStream in) throws IOException {
        String encoding = headers.get("transfer-encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).endsWith("chunked")) {
            return new ChunkedInputStream(in);
        }
        String length = headers.get("content-length");
        if (length == null) {
            throw new IOException("response has neither Content-Length nor chunked encoding");
        }
        return new LengthLimitedInputStream(in, Long.parseLong(length.strip()));
    }

    private static int status(String line) throws IOException {
        // HTTP/1.1 200 OK
        if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
            throw new IOException("not an HTTP/1.x status line: " + line);
        }
        return Integer.parseInt(line.substring(9, 12));
    }

    private static Map<String, String> fields(InputStream in) throws IOException {
        Map<String, String> fields = new HashMap<>();
        for (String line = HttpLine.read(in); !line.isEmpty(); line = HttpLine.read(in)) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed header line: " + line);
            }
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            fields.merge(name, line.substring(colon + 1).strip(), (a, b) -> a + ", " + b);
        }
        return fields;
    }
}
