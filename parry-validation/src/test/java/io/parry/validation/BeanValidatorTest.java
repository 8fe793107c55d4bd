package io.parry.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.parry.http.Problem.FieldError;
import io.parry.json.InputCheck;
import io.parry.json.JsonCodec;
import io.parry.validation.internal.DeferredCheck;
import jakarta.validation.Valid;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class BeanValidatorTest {
    record Address(@NotBlank String street, @NotBlank String zipCode) {}

    record Line(@NotBlank String sku, @Positive int quantity) {}

    record NewOrder(
            @NotBlank @Size(max = 5) String customer,
            @NotNull @Valid Address address,
            @NotEmpty List<@Valid Line> lines,
            List<@NotBlank String> tags,
            Map<String, @NotBlank String> labels,
            @JsonProperty("due_on") @NotNull String dueOn) {}

    record Plain(String name, List<String> tags) {}

    record Wrapper(@Valid Plain plain) {}

    private static final BeanValidator validator = BeanValidator.create(JsonCodec.ofDefault());

    private static final NewOrder VALID = new NewOrder(
            "ann", new Address("1 Main St", "12345"), List.of(new Line("tea", 1)), List.of("x"), Map.of(), "today");

    @Test
    void typesWithoutConstraintsNeedNoCheck() {
        validator.ready().toCompletableFuture().join();
        assertThat(validator.checkFor(Plain.class)).isEmpty();
        assertThat(validator.checkFor(String.class)).isEmpty();
        assertThat(validator.checkFor(Wrapper.class)).isPresent(); // cascades count, even to nothing
        assertThat(validator.checkFor(NewOrder.class)).isPresent();
    }

    @Test
    void aValidInputHasNoViolations() {
        assertThat(check(VALID)).isEmpty();
    }

    @Test
    void listsEachFieldWithItsMessageAndRejectedValue() {
        NewOrder order = new NewOrder(" ", VALID.address(), VALID.lines(), VALID.tags(), Map.of(), null);

        assertThat(check(order))
                .containsExactly(
                        FieldError.of("customer", "must not be blank", " "),
                        FieldError.of("due_on", "must not be null", null));
    }

    @Test
    void namesNestedObjectsListElementsAndMapValuesByPath() {
        NewOrder order = new NewOrder(
                "ann",
                new Address("1 Main St", ""),
                List.of(new Line("tea", 1), new Line("", -2)),
                List.of("ok", ""),
                Map.of("home", ""),
                "today");

        assertThat(check(order))
                .containsExactly(
                        FieldError.of("address.zipCode", "must not be blank", ""),
                        FieldError.of("labels[home]", "must not be blank", ""),
                        FieldError.of("lines[1].quantity", "must be greater than 0", -2),
                        FieldError.of("lines[1].sku", "must not be blank", ""),
                        FieldError.of("tags[1]", "must not be blank", ""));
    }

    @Test
    void leavesOutRejectedValuesThatAreNotScalars() {
        NewOrder order = new NewOrder("ann", VALID.address(), List.of(), VALID.tags(), Map.of(), "today");

        assertThat(check(order)).containsExactly(FieldError.of("lines", "must not be empty"));
    }

    @Test
    void sortsSeveralMessagesForOneField() {
        NewOrder order = new NewOrder("      ", VALID.address(), VALID.lines(), VALID.tags(), Map.of(), "today");

        assertThat(check(order))
                .extracting(FieldError::message)
                .containsExactly("must not be blank", "size must be between 0 and 5");
    }

    @Test
    void namesFieldsAsTheCodecsMapperReadsThem() {
        JsonCodec snake = JsonCodec.of(JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .build());
        NewOrder order = new NewOrder("ann", new Address("x", " "), VALID.lines(), VALID.tags(), Map.of(), "today");

        assertThat(check(BeanValidator.create(snake), order))
                .containsExactly(FieldError.of("address.zip_code", "must not be blank", " "));
    }

    @Test
    void ofUsesTheGivenValidatorAndItsJavaNames() {
        BeanValidator plain =
                BeanValidator.of(Validation.buildDefaultValidatorFactory().getValidator());
        NewOrder order = new NewOrder("ann", VALID.address(), VALID.lines(), VALID.tags(), Map.of(), null);

        assertThat(check(plain, order)).extracting(FieldError::field).containsExactly("dueOn");
    }

    @Test
    void aCheckAskedForWhileTheValidatorIsBuiltFindsItsConstraintsOnFirstUse() {
        CompletableFuture<Validator> building = new CompletableFuture<>();
        DeferredCheck<NewOrder> orders = new DeferredCheck<>(building, NewOrder.class);
        DeferredCheck<Plain> plain = new DeferredCheck<>(building, Plain.class);
        building.complete(Validation.buildDefaultValidatorFactory().getValidator());
        NewOrder order = new NewOrder("ann", VALID.address(), VALID.lines(), VALID.tags(), Map.of(), null);

        assertThat(orders.violations(order)).extracting(FieldError::field).containsExactly("dueOn");
        assertThat(plain.violations(new Plain(null, null))).isEmpty();
    }

    @Test
    void aCheckAskedForWhileTheValidatorIsBuiltFailsItsRequestsWhenTheBuildFails() {
        CompletableFuture<Validator> building = new CompletableFuture<>();
        DeferredCheck<NewOrder> orders = new DeferredCheck<>(building, NewOrder.class);
        building.completeExceptionally(new IllegalStateException("no provider"));

        assertThatThrownBy(() -> orders.violations(VALID)).hasRootCauseMessage("no provider");
    }

    @Test
    void checksArguments() {
        assertThatThrownBy(() -> BeanValidator.create(null)).hasMessage("codec");
        assertThatThrownBy(() -> BeanValidator.of(null)).hasMessage("validator");
        assertThatThrownBy(() -> validator.checkFor(null)).hasMessage("type");
    }

    private static List<FieldError> check(NewOrder order) {
        return check(validator, order);
    }

    private static List<FieldError> check(BeanValidator validator, NewOrder order) {
        InputCheck<NewOrder> check = validator.checkFor(NewOrder.class).orElseThrow();
        return check.violations(order);
    }
}
