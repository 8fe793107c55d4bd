package io.parry.protection;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;

/** The JDK's own gzip and zlib streams, as the independent reference the tests check Parry against. */
final class Gzip {
    private Gzip() {}

    static String gunzip(byte[] bytes) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String inflate(byte[] bytes) {
        try (InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(bytes))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A JSON text of about this many bytes, repetitive as JSON is. */
    static String json(int bytes) {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; text.length() < bytes - 60; i++) {
            text.append(i == 0 ? "" : ",")
                    .append("{\"id\":")
                    .append(i)
                    .append(",\"title\":\"item ")
                    .append(i)
                    .append("\",\"done\":false}");
        }
        return text.append(']').toString();
    }
}
