package io.parry.gateway.internal.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Collects the errors found in one file, so that the user sees them all at once. */
final class ConfigErrors {
    private final String file;
    private final List<ConfigError> errors = new ArrayList<>();
    private final Set<Integer> mutedLines = new HashSet<>();

    /** The file's name as errors give it. */
    String file() {
        return file;
    }

    ConfigErrors(String file) {
        this.file = file;
    }

    void add(Location location, String message) {
        if (!mutedLines.contains(location.line())) {
            errors.add(new ConfigError(file, location.line(), location.column(), message));
        }
    }

    /**
     * Adds an error and ignores any later one on the same line: after a placeholder fails, the value it
     * left behind would only give a second, confusing error.
     */
    void addAndMuteLine(Location location, String message) {
        add(location, message);
        mutedLines.add(location.line());
    }

    int count() {
        return errors.size();
    }

    boolean any() {
        return !errors.isEmpty();
    }

    void throwIfAny() {
        if (!errors.isEmpty()) {
            List<ConfigError> sorted = new ArrayList<>(errors);
            sorted.sort(Comparator.comparingInt(ConfigError::line).thenComparingInt(ConfigError::column));
            throw new ConfigException(sorted);
        }
    }
}
