package io.parry.gateway.internal.config;

import java.util.Locale;

/** Sizes as the configuration writes them: bytes ({@code 65536}) or a whole number of {@code KiB}, {@code MiB} or {@code GiB}. */
final class SizeText {
    static final String EXPECTED = "a size such as 65536, 64KiB, 10MiB or 1GiB";

    private SizeText() {}

    /** The size in bytes, or -1 if the text is not a size or too large for a {@code long}. */
    static long parse(String text) {
        int digits = 0;
        while (digits < text.length() && Character.isDigit(text.charAt(digits))) {
            digits++;
        }
        if (digits == 0 || digits > 18) {
            return -1;
        }
        long amount = Long.parseLong(text.substring(0, digits));
        int shift = shift(text.substring(digits));
        if (shift < 0 || amount > (Long.MAX_VALUE >> shift)) {
            return -1;
        }
        return amount << shift;
    }

    /** A hint for a decimal unit written where a binary one is meant, such as {@code 10MB}; empty otherwise. */
    static String hint(String text) {
        String upper = text.toUpperCase(Locale.ROOT);
        for (String unit : new String[] {"KB", "MB", "GB", "K", "M", "G"}) {
            if (upper.endsWith(unit) && parse(text.substring(0, text.length() - unit.length())) >= 0) {
                return ", did you mean '" + text.substring(0, text.length() - unit.length()) + unit.charAt(0) + "iB'?";
            }
        }
        return "";
    }

    private static int shift(String unit) {
        switch (unit) {
            case "":
            case "B":
                return 0;
            case "KiB":
                return 10;
            case "MiB":
                return 20;
            case "GiB":
                return 30;
            default:
                return -1;
        }
    }
}
