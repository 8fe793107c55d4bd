package io.parry.gateway.internal.config;

import java.util.Collection;
import java.util.Locale;

/** Finds the name a typo was probably meant to be: the closest within two edits, ignoring case. */
final class ClosestName {
    private ClosestName() {}

    /** The closest candidate within two edits, or {@code null}. */
    static String of(String typo, Collection<String> candidates) {
        String best = null;
        int bestDistance = 3;
        String lower = typo.toLowerCase(Locale.ROOT);
        for (String candidate : candidates) {
            int distance = distance(lower, candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
