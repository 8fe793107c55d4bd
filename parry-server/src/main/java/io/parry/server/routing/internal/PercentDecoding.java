package io.parry.server.routing.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Decodes percent-escapes in a path segment as UTF-8 ({@code +} stays a plus in a path). */
public final class PercentDecoding {
    private PercentDecoding() {}

    /**
     * Decodes {@code s[from, to)}; with {@code keepSlash}, {@code %2F} stays encoded so a decoded
     * catch-all cannot gain segments (a {@code ..%2F} must not become {@code ../}).
     */
    public static String decode(String s, int from, int to, boolean keepSlash) {
        int percent = s.indexOf('%', from);
        if (percent < 0 || percent >= to) {
            return s.substring(from, to);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < to) {
                int value = Character.digit(s.charAt(i + 1), 16) << 4 | Character.digit(s.charAt(i + 2), 16);
                if (value < 0 || (keepSlash && value == '/')) {
                    bytes.write(c);
                    continue;
                }
                bytes.write(value);
                i += 2;
            } else if (c < 0x80) {
                bytes.write(c);
            } else {
                byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
