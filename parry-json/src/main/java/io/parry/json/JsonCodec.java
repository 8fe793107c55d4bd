package io.parry.json;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.parry.http.HttpData;
import io.parry.json.internal.JsonDecoder;
import java.io.UncheckedIOException;

/**
 * Reads and writes JSON with one Jackson {@link ObjectMapper}, shared by every endpoint built with
 * it. The mapper is configured before it is handed over and must not be reconfigured afterwards;
 * Jackson mappers are thread-safe once configured.
 *
 * <p>{@link #ofDefault()} is Jackson's defaults with one change: unknown properties are ignored (a
 * tolerant reader: clients may send fields that a newer or older version of the API knows). As in
 * Jackson, a missing or {@code null} primitive is read as {@code 0} or {@code false}; use wrapper
 * types and {@code @NotNull} for required fields. Register modules such as {@code JavaTimeModule} on
 * your own mapper and use {@link #of(ObjectMapper)}.
 *
 * <pre>{@code
 * JsonCodec json = JsonCodec.ofDefault();
 * JsonCodec snake = JsonCodec.of(JsonMapper.builder()
 *         .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
 *         .build());
 * }</pre>
 */
public final class JsonCodec {
    private final ObjectMapper mapper;
    private final ObjectWriter writer;

    private JsonCodec(ObjectMapper mapper) {
        this.mapper = mapper;
        this.writer = mapper.writer();
    }

    /** A codec with a new mapper configured as described above. */
    public static JsonCodec ofDefault() {
        return new JsonCodec(JsonMapper.builder()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build());
    }

    /** A codec using this mapper as it is configured. */
    public static JsonCodec of(ObjectMapper mapper) {
        return new JsonCodec(requireNonNull(mapper, "mapper"));
    }

    /** The mapper. */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** The writer shared by every endpoint built with this codec. */
    ObjectWriter writer() {
        return writer;
    }

    /**
     * Reads one JSON value of this type from the bytes, for handlers that decode by hand. Endpoints
     * built by {@link JsonEndpoints} prepare their reader once instead.
     *
     * @throws InvalidInputException when the bytes are empty, not JSON, followed by more content, the
     *     JSON {@code null}, or do not fit the type; its detail names the line and column or the field
     */
    public <T> T read(HttpData data, Class<T> type) {
        requireNonNull(data, "data");
        return new JsonDecoder<>(mapper, requireNonNull(type, "type")).decode(data);
    }

    /**
     * Writes the value as JSON in UTF-8.
     *
     * @throws UncheckedIOException when Jackson cannot write the value (a bug in its type, not the
     *     client's fault)
     */
    public HttpData write(Object value) {
        try {
            return HttpData.wrap(writer.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
