package io.parry.gateway.internal.config;

/**
 * One problem in a configuration file, where it is and what is expected.
 *
 * @param file the file's name as given to the loader
 * @param line the 1-based line
 * @param column the 1-based column
 * @param message one sentence saying what is wrong and what is expected
 */
public record ConfigError(String file, int line, int column, String message) {

    /** {@code file:line:column: message}. */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + message;
    }
}
