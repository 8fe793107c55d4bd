package io.parry.json;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.json.internal.BodyEndpoint;
import io.parry.json.internal.Invocation;
import io.parry.json.internal.JsonDecoder;
import io.parry.json.internal.NoBodyEndpoint;
import io.parry.server.Handler;

/**
 * Builds typed JSON endpoints: {@link Handler}s that decode their input from JSON, validate it, call
 * the application and encode its output as JSON. Everything an endpoint needs per request (the
 * Jackson reader for its type, the validation check, the writer) is prepared once, not per request:
 * the check and the writer when the endpoint is built, the reader at its first request, so that a
 * service binds its port before Jackson builds its deserializers.
 *
 * <p>An endpoint that reads content answers, without calling the application:
 *
 * <ul>
 *   <li>415 when the {@code Content-Type} is missing or not JSON ({@code application/json} or
 *       {@code application/*+json}; a {@code charset} other than UTF-8 or a content coding is refused
 *       too), with {@code Accept: application/json};
 *   <li>413 when the content is longer than {@link Builder#maxBodyBytes(long)};
 *   <li>400 when the content is empty, malformed JSON (the detail names the line and column), followed
 *       by more content, the JSON {@code null}, or has a value of the wrong type (the detail and
 *       {@code errors} name the field);
 *   <li>400 when the {@link InputValidator} finds violations, listed in the problem's {@code errors}.
 * </ul>
 *
 * <p>Problems carry the request path as {@code instance} and the request id, like the server's own.
 * Unknown properties are ignored or refused as the codec's mapper says ({@link JsonCodec#ofDefault()}
 * ignores them). The output becomes a response as described in {@link JsonHandler}, with {@code
 * Content-Type: application/json}.
 *
 * <pre>{@code
 * JsonCodec json = JsonCodec.ofDefault();
 * JsonEndpoints endpoints = JsonEndpoints.builder()
 *         .codec(json)
 *         .validator(BeanValidator.create(json))
 *         .maxBodyBytes(64 * 1024)
 *         .build();
 * Handler create = endpoints.of(NewTodo.class, (ctx, todo) -> store.add(todo)
 *         .thenApply(saved -> JsonResult.created("/todos/" + saved.id(), saved)));
 * Handler one = endpoints.syncWithoutBody((ctx, request) -> cache.get(request.path()));
 * Handler list = endpoints.blockingWithoutBody((ctx, request) -> repository.findAll());
 * }</pre>
 */
public final class JsonEndpoints {
    private final JsonCodec codec;
    private final InputValidator validator;
    private final long maxBodyBytes;

    private JsonEndpoints(Builder builder) {
        this.codec = builder.codec;
        this.validator = builder.validator;
        this.maxBodyBytes = builder.maxBodyBytes;
    }

    /** Endpoints with {@link JsonCodec#ofDefault()}, no validation and a 1 MiB content limit. */
    public static JsonEndpoints ofDefault() {
        return builder().build();
    }

    /** A builder with the defaults of {@link #ofDefault()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        return new Builder().codec(codec).validator(validator).maxBodyBytes(maxBodyBytes);
    }

    /**
     * An endpoint that reads a {@code type} from the request content and passes it to the handler, on
     * the event loop.
     */
    public <I, O> Handler of(Class<I> type, JsonHandler<I, O> handler) {
        requireNonNull(handler, "handler");
        return body(type, Invocation.async(handler, codec.writer()));
    }

    /**
     * An endpoint that reads a {@code type} from the request content and answers at once with the
     * handler's output, on the event loop; no stage needed. A name of its own rather than an overload
     * of {@link #of}, so implicitly typed lambdas stay unambiguous (JLS 15.12.2.5).
     */
    public <I, O> Handler sync(Class<I> type, SyncJsonHandler<I, O> handler) {
        requireNonNull(handler, "handler");
        return body(type, Invocation.sync(handler, codec.writer()));
    }

    /**
     * An endpoint that reads a {@code type} from the request content on the event loop, then runs the
     * handler on the worker executor ({@link io.parry.server.RequestContext#runBlocking}).
     */
    public <I, O> Handler blocking(Class<I> type, BlockingJsonHandler<I, O> handler) {
        requireNonNull(handler, "handler");
        return body(type, Invocation.blocking(handler, codec.writer()));
    }

    /**
     * An endpoint that reads no content (for {@code GET} or {@code DELETE}): the handler gets the
     * request, for its query and headers, and runs on the event loop. Content sent anyway is ignored.
     */
    public <O> Handler withoutBody(JsonHandler<HttpRequest, O> handler) {
        return new NoBodyEndpoint(Invocation.async(requireNonNull(handler, "handler"), codec.writer()));
    }

    /** Like {@link #withoutBody(JsonHandler)}, answering at once with the handler's output. */
    public <O> Handler syncWithoutBody(SyncJsonHandler<HttpRequest, O> handler) {
        return new NoBodyEndpoint(Invocation.sync(requireNonNull(handler, "handler"), codec.writer()));
    }

    /** Like {@link #withoutBody(JsonHandler)}, with the handler on the worker executor. */
    public <O> Handler blockingWithoutBody(BlockingJsonHandler<HttpRequest, O> handler) {
        return new NoBodyEndpoint(Invocation.blocking(requireNonNull(handler, "handler"), codec.writer()));
    }

    /** The codec. */
    public JsonCodec codec() {
        return codec;
    }

    private <I> Handler body(Class<I> type, Invocation<I> invocation) {
        requireNonNull(type, "type");
        JsonDecoder<I> decoder = new JsonDecoder<>(codec.mapper(), type);
        InputCheck<I> check = validator.checkFor(type).orElse(null);
        return new BodyEndpoint<>(decoder, check, maxBodyBytes, invocation);
    }

    @Override
    public String toString() {
        return "JsonEndpoints(validator: " + validator + ", maxBodyBytes: " + maxBodyBytes + ")";
    }

    /** Builds {@link JsonEndpoints}; not thread-safe. */
    public static final class Builder {
        private JsonCodec codec;
        private InputValidator validator = InputValidator.none();
        private long maxBodyBytes = 1 << 20;

        private Builder() {}

        /** The codec; default {@link JsonCodec#ofDefault()}. */
        public Builder codec(JsonCodec codec) {
            this.codec = requireNonNull(codec, "codec");
            return this;
        }

        /** The validator of decoded inputs; default {@link InputValidator#none()}. */
        public Builder validator(InputValidator validator) {
            this.validator = requireNonNull(validator, "validator");
            return this;
        }

        /**
         * The most content bytes an endpoint reads; longer content is answered with 413. Default 1 MiB.
         * The server's {@code RequestLimits.maxBodySize} still applies first.
         */
        public Builder maxBodyBytes(long maxBodyBytes) {
            this.maxBodyBytes = maxBodyBytes;
            return this;
        }

        /**
         * The endpoints' factory.
         *
         * @throws IllegalArgumentException if {@code maxBodyBytes} is negative
         */
        public JsonEndpoints build() {
            if (maxBodyBytes < 0) {
                throw new IllegalArgumentException("maxBodyBytes: " + maxBodyBytes + " (expected: >= 0)");
            }
            if (codec == null) {
                codec = JsonCodec.ofDefault();
            }
            return new JsonEndpoints(this);
        }
    }
}
