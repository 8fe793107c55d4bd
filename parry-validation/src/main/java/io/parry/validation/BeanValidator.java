package io.parry.validation;

import static java.util.Objects.requireNonNull;

import io.parry.json.InputCheck;
import io.parry.json.InputValidator;
import io.parry.json.JsonCodec;
import io.parry.validation.internal.DeferredCheck;
import io.parry.validation.internal.FieldErrors;
import io.parry.validation.internal.JsonPropertyNames;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.hibernate.validator.HibernateValidator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates the inputs of typed JSON endpoints with Jakarta Bean Validation (Hibernate Validator).
 * Each endpoint asks once whether its input type carries constraints (on the type, its fields, or
 * through {@code @Valid} on nested objects and list elements); a type without any is never validated. A violation becomes a field error whose field is the path as the client wrote it
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
    // Made by the thread that creates a validator, before the bootstrap thread logs: SLF4J initialised by
    // two threads at once replays one's early calls with a warning on the console.
    private static final Logger LOG = LoggerFactory.getLogger(BeanValidator.class);

    private final CompletableFuture<Validator> validator;

    private BeanValidator(CompletableFuture<Validator> validator) {
        this.validator = validator;
    }

    /**
     * A validator with Hibernate Validator's defaults, English messages, and fields named as the
     * codec's mapper reads them ({@code @JsonProperty}, naming strategies). Create one and share it.
     *
     * <p>Returns at once: the validator factory, some 400 classes and a tenth of a second or more, is
     * built on a daemon thread ({@code parry-validator}), so a service binds its port and answers
     * requests that need no validation meanwhile. The checks of endpoints built before it is ready
     * read their type's constraints on that thread too; a request to validate that comes earlier
     * waits for it without holding its event loop ({@link InputCheck#ready}). A factory that cannot
     * be built fails those requests (500).
     */
    public static BeanValidator create(JsonCodec codec) {
        requireNonNull(codec, "codec");
        CompletableFuture<Validator> validator = new CompletableFuture<>();
        Thread bootstrap = new Thread(() -> build(codec, validator), "parry-validator");
        bootstrap.setDaemon(true);
        bootstrap.start();
        return new BeanValidator(validator);
    }

    /** A validator using this one as configured: fields are named as its property paths name them. */
    public static BeanValidator of(Validator validator) {
        return new BeanValidator(CompletableFuture.completedFuture(requireNonNull(validator, "validator")));
    }

    /**
     * Completes when the validator is ready to check inputs at once, or fails with why it cannot be
     * built; for a readiness check, or a test that wants to know.
     */
    public CompletionStage<Void> ready() {
        return validator.thenApply(ready -> null);
    }

    /**
     * {@inheritDoc}
     *
     * <p>While the validator is being built (see {@link #create}), the check is always present and
     * finds out on its first use whether the type has constraints.
     */
    @Override
    public <T> Optional<InputCheck<T>> checkFor(Class<T> type) {
        requireNonNull(type, "type");
        if (!validator.isDone()) {
            return Optional.of(new DeferredCheck<>(validator, type));
        }
        Validator ready = validator.join();
        if (!ready.getConstraintsForClass(type).isBeanConstrained()) {
            return Optional.empty();
        }
        return Optional.of(input -> FieldErrors.of(ready.validate(input)));
    }

    private static void build(JsonCodec codec, CompletableFuture<Validator> validator) {
        long start = System.nanoTime();
        try {
            validator.complete(Validation.byProvider(HibernateValidator.class)
                    .configure()
                    .defaultLocale(Locale.ENGLISH)
                    .locales(Locale.ENGLISH)
                    .propertyNodeNameProvider(new JsonPropertyNames(codec.mapper()))
                    .buildValidatorFactory()
                    .getValidator());
            LOG.debug("Bean Validation ready in {} ms", (System.nanoTime() - start) / 1_000_000);
        } catch (RuntimeException | Error e) {
            validator.completeExceptionally(e);
        }
    }

    @Override
    public String toString() {
        return "BeanValidator";
    }
}
