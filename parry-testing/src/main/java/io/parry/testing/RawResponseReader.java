package io.parry.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads HTTP/1.1 responses byte by byte, strictly: a framing error in the server fails the test. */
final class RawResponseReader {
    private RawResponseReader() {}

    static RawResponse readHead(InputStream in) throws IOException {
        String statusLine = readLine(in);
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new IOException("not a status line: " + statusLine);
        }
        return new RawResponse(parts[0], Integer.parseInt(parts[1]), readFields(in), new byte[0], List.of());
    }

    static RawResponse readBody(InputStream in, RawResponse head) throws IOException {
        String transferEncoding = head.header("transfer-encoding");
        if (transferEncoding != null && transferEncoding.toLowerCase().contains("chunked")) {
            return readChunked(in, head);
        }
        String contentLength = head.header("content-length");
        if (contentLength != null) {
            return head.withBody(in.readNBytes(Integer.parseInt(contentLength.trim())), List.of());
        }
        return head.withBody(in.readAllBytes(), List.of());
    }

    private static RawResponse readChunked(InputStream in, RawResponse head) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                return head.withBody(body.toByteArray(), readFields(in));
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length != size) {
                throw new EOFException("chunk cut short");
            }
            body.write(chunk);
            if (!readLine(in).isEmpty()) {
                throw new IOException("chunk not followed by CRLF");
            }
        }
    }

    private static List<Map.Entry<String, String>> readFields(InputStream in) throws IOException {
        List<Map.Entry<String, String>> fields = new ArrayList<>();
        for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("not a header line: " + line);
            }
            fields.add(Map.entry(
                    line.substring(0, colon), line.substring(colon + 1).trim()));
        }
        return fields;
    }

    /** Reads a line that must end with CRLF; the server never sends a bare LF. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed in a line: " + line.toString(StandardCharsets.ISO_8859_1));
            }
            if (b == '\n') {
                if (previous != '\r') {
                    throw new IOException("bare LF from the server");
                }
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
            previous = b;
        }
    }
}
