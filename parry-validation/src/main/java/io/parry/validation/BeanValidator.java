package io.parry.validation;

import static java.util.Objects.requireNonNull;

import io.parry.http.Problem.FieldError;
import io.parry.json.InputCheck;
import io.parry.json.InputValidator;
import io.parry.json.JsonCodec;
import io.parry.validation.internal.JsonPropertyNames;
import io.parry.validation.internal.ViolationPaths;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.hibernate.validator.HibernateValidator;

/**
 * Validates the inputs of typed JSON endpoints with Jakarta Bean Validation (Hibernate Validator).
 * Each endpoint asks once, when it is built, whether its input type carries constraints (on the type,
 * its fields, or through {@code @Valid} on nested objects and list elements); a type without any is
 * never validated. A violation becomes a field error whose field is the path as the client wrote it
 * (for example {@code items[1].quantity}), with the message and, when it is a scalar, the rejected
 * value. Errors are sorted by field, then message.
 *
 * <pre>{@code
 * record NewTodo(@NotBlank @Size(max = 200) String title, @Valid List<@NotNull Tag> tags) {}
 *
 * JsonCodec json = JsonCodec.ofDefault();
 * JsonEndpoints endpoints = JsonEndpoints.builder()
 *         .codec(json)
 *         .validator(BeanValidator.create(json))
 *         .build();
 * }</pre>
 */
public final class BeanValidator implements InputValidator {
    private final Validator validator;

    private BeanValidator(Validator validator) {
        this.validator = validator;
    }

    /**
     * A validator with Hibernate Validator's defaults, English messages, and fields named as the
     * codec's mapper reads them ({@code @JsonProperty}, naming strategies). Builds the validator
     * factory, which takes a moment: create one and share it.
     */
    public static BeanValidator create(JsonCodec codec) {
        requireNonNull(codec, "codec");
        Validator validator = Validation.byProvider(HibernateValidator.class)
                .configure()
                .defaultLocale(Locale.ENGLISH)
                .locales(Locale.ENGLISH)
                .propertyNodeNameProvider(new JsonPropertyNames(codec.mapper()))
                .buildValidatorFactory()
                .getValidator();
        return new BeanValidator(validator);
    }

    /** A validator using this one as configured: fields are named as its property paths name them. */
    public static BeanValidator of(Validator validator) {
        return new BeanValidator(requireNonNull(validator, "validator"));
    }

    @Override
    public <T> Optional<InputCheck<T>> checkFor(Class<T> type) {
        requireNonNull(type, "type");
        if (!validator.getConstraintsForClass(type).isBeanConstrained()) {
            return Optional.empty();
        }
        return Optional.of(input -> errors(validator.validate(input)));
    }

    private static <T> List<FieldError> errors(Set<ConstraintViolation<T>> violations) {
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

    @Override
    public String toString() {
        return "BeanValidator";
    }
}
