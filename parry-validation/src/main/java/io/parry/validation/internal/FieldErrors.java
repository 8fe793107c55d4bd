package io.parry.validation.internal;

import io.parry.http.Problem.FieldError;
import jakarta.validation.ConstraintViolation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Turns violations into field errors: the field as the client wrote it, the message and, for a
 * scalar, the rejected value; sorted by field, then message.
 */
public final class FieldErrors {
    private FieldErrors() {}

    public static <T> List<FieldError> of(Set<ConstraintViolation<T>> violations) {
        if (violations.isEmpty()) {
            return List.of();
        }
        List<FieldError> errors = new ArrayList<>(violations.size());
        for (ConstraintViolation<T> violation : violations) {
            String field = ViolationPaths.of(violation.getPropertyPath());
            Object rejected = violation.getInvalidValue();
            errors.add(
                    FieldError.isScalar(rejected)
                            ? FieldError.of(field, violation.getMessage(), rejected)
                            : FieldError.of(field, violation.getMessage()));
        }
        errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
        return errors;
    }
}
