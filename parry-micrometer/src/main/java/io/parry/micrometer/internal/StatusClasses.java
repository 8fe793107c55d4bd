package io.parry.micrometer.internal;

/**
 * Status classes as tag values ({@code 2xx}, {@code 5xx}...), looked up by index so that recording
 * builds no string.
 */
public final class StatusClasses {
    /** Indexes 0 to 4 are {@code 1xx} to {@code 5xx}; 5 is a status outside 100..599. */
    public static final int COUNT = 6;

    private static final String[] LABELS = {"1xx", "2xx", "3xx", "4xx", "5xx", "UNKNOWN"};

    private StatusClasses() {}

    /** The index of the status's class, 0 to {@code COUNT - 1}. */
    public static int index(int status) {
        return status >= 100 && status < 600 ? status / 100 - 1 : COUNT - 1;
    }

    /** The tag value of a class index. */
    public static String label(int index) {
        return LABELS[index];
    }
}
