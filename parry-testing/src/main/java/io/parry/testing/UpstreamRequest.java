package io.parry.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * A request a {@link FaultyUpstream} has read: its raw head, and its body counted and dropped.
 * Parsing is lenient where a test client cannot go wrong and strict only where framing needs it.
 */
final class UpstreamRequest {
    private static final int MAX_HEAD_BYTES = 64 * 1024;
    private static final int MAX_LINE_BYTES = 8 * 1024;

    private final String head;
    private final boolean isHead;
    private final boolean keepAlive;
    private final long bodyLength;

    private UpstreamRequest(String head, boolean isHead, boolean keepAlive, long bodyLength) {
        this.head = head;
        this.isHead = isHead;
        this.keepAlive = keepAlive;
        this.bodyLength = bodyLength;
    }

    /**
     * Reads the next request, its body included.
     *
     * @return the request, or null if the client closed the connection before sending a byte of it
     * @throws IOException if the connection fails or closes within a request, or the framing is broken
     */
    static UpstreamRequest read(InputStream in) throws IOException {
        String head = readHead(in);
        if (head == null) {
            return null;
        }
        String[] lines = head.split("\r?\n");
        String requestLine = lines[0];
        boolean http10 = requestLine.endsWith("HTTP/1.0");
        boolean chunked = false;
        long contentLength = 0;
        boolean close = http10;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            switch (name) {
                case "content-length" -> contentLength = parseContentLength(value);
                case "transfer-encoding" -> chunked = value.endsWith("chunked");
                case "connection" -> close = hasToken(value, "close") || (http10 && !hasToken(value, "keep-alive"));
                default -> {}
            }
        }
        // RFC 9112, section 6.3: chunked framing wins over Content-Length.
        long bodyLength = chunked ? skipChunked(in) : skip(in, contentLength);
        return new UpstreamRequest(head, requestLine.startsWith("HEAD "), !close, bodyLength);
    }

    /** The head exactly as received, from the request line to the empty line that ends it. */
    String head() {
        return head;
    }

    boolean isHead() {
        return isHead;
    }

    boolean keepAlive() {
        return keepAlive;
    }

    long bodyLength() {
        return bodyLength;
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(256);
        int b = in.read();
        while (b == '\r' || b == '\n') {
            b = in.read(); // RFC 9112, section 2.2: empty lines before a request line are ignored.
        }
        if (b < 0) {
            return null;
        }
        int lineLength = 0;
        while (true) {
            head.write(b);
            if (b == '\n') {
                if (lineLength == 0) {
                    return head.toString(ISO_8859_1);
                }
                lineLength = 0;
            } else if (b != '\r') {
                lineLength++;
            }
            if (head.size() > MAX_HEAD_BYTES) {
                throw new IOException("request head over " + MAX_HEAD_BYTES + " bytes");
            }
            b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed within a request head");
            }
        }
    }

    private static long skipChunked(InputStream in) throws IOException {
        long total = 0;
        while (true) {
            String sizeLine = readLine(in);
            int semicolon = sizeLine.indexOf(';');
            long size = parseHex((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim());
            if (size == 0) {
                while (!readLine(in).isEmpty()) {
                    // Trailer fields are dropped.
                }
                return total;
            }
            total += skip(in, size);
            if (!readLine(in).isEmpty()) {
                throw new IOException("chunk data not followed by CRLF");
            }
        }
    }

    private static long skip(InputStream in, long length) throws IOException {
        in.skipNBytes(length);
        return length;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("connection closed within a chunked body");
            }
            if (line.length() > MAX_LINE_BYTES) {
                throw new IOException("chunk line over " + MAX_LINE_BYTES + " bytes");
            }
            line.append((char) b);
        }
        int end = line.length() > 0 && line.charAt(line.length() - 1) == '\r' ? line.length() - 1 : line.length();
        return line.substring(0, end);
    }

    private static long parseContentLength(String value) throws IOException {
        try {
            long length = Long.parseLong(value);
            if (length < 0) {
                throw new IOException("negative Content-Length: " + value);
            }
            return length;
        } catch (NumberFormatException e) {
            throw new IOException("bad Content-Length: " + value, e);
        }
    }

    private static long parseHex(String size) throws IOException {
        try {
            long parsed = Long.parseLong(size, 16);
            if (parsed < 0) {
                throw new IOException("negative chunk size: " + size);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IOException("bad chunk size: " + size, e);
        }
    }

    private static boolean hasToken(String list, String token) {
        for (String element : list.split(",")) {
            if (element.trim().equals(token)) {
                return true;
            }
        }
        return false;
    }
}
