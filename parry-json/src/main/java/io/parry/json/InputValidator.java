package io.parry.json;

import java.util.Optional;

/**
 * Validates the inputs of typed JSON endpoints; wired explicitly with {@link
 * JsonEndpoints.Builder#validator(InputValidator)}. An invalid input is answered with a 400 problem
 * whose {@code errors} member lists each field at fault, and the handler is not called.
 * {@code parry-validation} implements it with Jakarta Bean Validation.
 *
 * <pre>{@code
 * JsonEndpoints endpoints = JsonEndpoints.builder().validator(BeanValidator.create(json)).build();
 * }</pre>
 */
public interface InputValidator {

    /**
     * The check for inputs of this type, asked once when an endpoint is built; empty when values of
     * the type need no checking, so that requests skip validation altogether.
     */
    <T> Optional<InputCheck<T>> checkFor(Class<T> type);

    /** A validator that checks nothing: the default. */
    static InputValidator none() {
        return new InputValidator() {
            @Override
            public <T> Optional<InputCheck<T>> checkFor(Class<T> type) {
                return Optional.empty();
            }

            @Override
            public String toString() {
                return "InputValidator.none()";
            }
        };
    }
}
