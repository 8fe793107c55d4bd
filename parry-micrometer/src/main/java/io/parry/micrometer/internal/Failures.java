package io.parry.micrometer.internal;

import io.parry.client.ConnectTimeoutException;
import io.parry.client.UpstreamConnectException;
import java.util.concurrent.CompletionException;

/** Names failures for tags, and says which failures mean that no connection could be opened. */
public final class Failures {
    private Failures() {}

    /** The failure inside completion wrappers. */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** A tag value for a failure type: its simple name, or its full name when it has none (anonymous). */
    public static String name(Class<?> type) {
        String simple = type.getSimpleName();
        return simple.isEmpty() ? type.getName() : simple;
    }

    /** Whether the failure is a connection that could not be opened: refused, unreachable, timed out. */
    public static boolean isConnectFailure(Throwable failure) {
        return failure instanceof UpstreamConnectException || failure instanceof ConnectTimeoutException;
    }
}
