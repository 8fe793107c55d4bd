package io.parry.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.parry.http.HttpStatus;

/** The status and body a {@link FaultyUpstream} answers with, and their bytes on the wire. */
final class CannedResponse {
    static final CannedResponse DEFAULT = new CannedResponse(HttpStatus.OK, "ok".getBytes(UTF_8));

    private final HttpStatus status;
    private final byte[] body;

    private CannedResponse(HttpStatus status, byte[] body) {
        this.status = status;
        this.body = body;
    }

    static CannedResponse of(int status, String body) {
        requireNonNull(body, "body");
        HttpStatus checked = HttpStatus.of(checkStatus(status));
        if (checked.forbidsBody() && !body.isEmpty()) {
            throw new IllegalArgumentException(
                    "body: " + body.length() + " characters (expected: empty for status " + status + ")");
        }
        return new CannedResponse(checked, body.getBytes(UTF_8));
    }

    static CannedResponse empty(int status) {
        return new CannedResponse(HttpStatus.of(status), new byte[0]);
    }

    static int checkStatus(int status) {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("status: " + status + " (expected: 200 to 599)");
        }
        return status;
    }

    /** The status line and fields; {@code Content-Length} always declares the whole body. */
    byte[] head(boolean close) {
        StringBuilder head = new StringBuilder(128)
                .append("HTTP/1.1 ")
                .append(status.code())
                .append(' ')
                .append(status.reasonPhrase())
                .append("\r\n");
        if (!status.forbidsBody()) {
            if (body.length > 0) {
                head.append("Content-Type: text/plain; charset=utf-8\r\n");
            }
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        if (close) {
            head.append("Connection: close\r\n");
        }
        return head.append("\r\n").toString().getBytes(ISO_8859_1);
    }

    /** The body; callers only read it. */
    byte[] body() {
        return body;
    }
}
