package io.parry.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.json.JsonCodec;
import io.parry.json.JsonEndpoints;
import io.parry.json.JsonResult;
import io.parry.testing.ServerExtension;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ValidatedEndpointTest {
    record Address(@NotBlank String city) {}

    record Line(@NotBlank String sku, @Positive int quantity) {}

    record NewOrder(@NotBlank String customer, @NotNull @Valid Address address, List<@Valid Line> lines) {}

    private static final ObjectMapper mapper = new ObjectMapper();
    private static final AtomicInteger calls = new AtomicInteger();
    private static final JsonCodec json = JsonCodec.ofDefault();
    private static final JsonEndpoints endpoints = JsonEndpoints.builder()
            .codec(json)
            .validator(BeanValidator.create(json))
            .build();

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(endpoints.blocking(NewOrder.class, (ctx, order) -> {
        calls.incrementAndGet();
        return JsonResult.created("/orders/1", order);
    }));

    @Test
    void aValidOrderIsCreated() throws Exception {
        HttpResponse<String> response = post(
                "{\"customer\":\"ann\",\"address\":{\"city\":\"Oslo\"},\"lines\":[{\"sku\":\"tea\",\"quantity\":2}]}");

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("location")).hasValue("/orders/1");
        assertThat(response.body())
                .isEqualTo(
                        "{\"customer\":\"ann\",\"address\":{\"city\":\"Oslo\"},\"lines\":[{\"sku\":\"tea\",\"quantity\":2}]}");
    }

    @Test
    void anInvalidOrderIs400ListingEveryFieldAndTheHandlerIsNotCalled() throws Exception {
        int before = calls.get();

        HttpResponse<String> response = post(
                "{\"customer\":\"\",\"address\":{\"city\":\" \"},\"lines\":[{\"sku\":\"tea\",\"quantity\":1},{\"sku\":\"x\",\"quantity\":0}]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
        JsonNode problem = mapper.readTree(response.body());
        assertThat(problem.get("title").asText()).isEqualTo("Bad Request");
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("detail").asText()).isEqualTo("The request content is invalid in 3 fields.");
        assertThat(problem.get("instance").asText()).isEqualTo("/orders");
        assertThat(problem.get("requestId").asText()).isNotEmpty();
        assertThat(problem.get("errors").toString())
                .isEqualTo(
                        "[{\"field\":\"address.city\",\"message\":\"must not be blank\",\"rejectedValue\":\" \"},"
                                + "{\"field\":\"customer\",\"message\":\"must not be blank\",\"rejectedValue\":\"\"},"
                                + "{\"field\":\"lines[1].quantity\",\"message\":\"must be greater than 0\",\"rejectedValue\":0}]");
        assertThat(calls.get()).isEqualTo(before);
    }

    @Test
    void aMissingNestedObjectIsNamed() throws Exception {
        JsonNode problem = mapper.readTree(post("{\"customer\":\"ann\"}").body());

        assertThat(problem.get("errors").toString())
                .isEqualTo("[{\"field\":\"address\",\"message\":\"must not be null\",\"rejectedValue\":null}]");
    }

    @Test
    void malformedJsonIsReportedBeforeValidation() throws Exception {
        HttpResponse<String> response = post("{\"customer\":\"ann\",\n\"address\":{\"city\":\"Oslo\"");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(mapper.readTree(response.body()).get("detail").asText())
                .isEqualTo("Malformed JSON at line 2, column 25: Unexpected end-of-input: expected close marker for"
                        + " Object (start marker at line 2, column 11).");
    }

    private static HttpResponse<String> post(String body) throws Exception {
        return server.client()
                .send(
                        HttpRequest.newBuilder(server.uri("/orders"))
                                .header("content-type", "application/json")
                                .POST(BodyPublishers.ofString(body))
                                .build(),
                        BodyHandlers.ofString());
    }
}
