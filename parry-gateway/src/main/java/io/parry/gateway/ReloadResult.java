package io.parry.gateway;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a reload did: either the configuration read is live (a new version, or the same one when it
 * had not changed), or it was rejected and the previous version keeps serving.
 *
 * @param applied whether the configuration read is the one serving now
 * @param version the version serving after the reload; each applied change adds one, starting at 1
 * @param errors why the configuration was rejected, one sentence each with its place in the file
 *     where known; empty when applied
 */
public record ReloadResult(boolean applied, long version, List<String> errors) {

    /** Copies the errors. */
    public ReloadResult {
        errors = List.copyOf(requireNonNull(errors, "errors"));
    }

    /** A reload that left this version serving the configuration read. */
    public static ReloadResult applied(long version) {
        return new ReloadResult(true, version, List.of());
    }

    /** A reload rejected for these reasons, this version still serving. */
    public static ReloadResult rejected(long version, List<String> errors) {
        return new ReloadResult(false, version, errors);
    }
}
