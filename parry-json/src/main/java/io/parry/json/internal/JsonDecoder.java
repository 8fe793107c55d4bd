package io.parry.json.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.parry.http.HttpData;
import io.parry.json.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads one JSON value of a fixed type from an aggregated body with a reader prepared once, at the
 * first decode: preparing it builds the type's deserializer, which loads a few hundred classes that a
 * service need not load before its port is bound. The value must be the whole content: an empty
 * body, trailing content and the literal {@code null} are refused, so a handler always gets a value.
 */
public final class JsonDecoder<T> {
    private final ObjectMapper mapper;
    private final Class<T> type;
    // Not volatile: two threads that both see null prepare equal immutable readers, published safely by
    // their final fields.
    private ObjectReader reader;

    public JsonDecoder(ObjectMapper mapper, Class<T> type) {
        this.mapper = mapper;
        this.type = type;
    }

    /**
     * The value in the bytes.
     *
     * @throws InvalidInputException when the client's content cannot be read as the type
     * @throws UncheckedIOException when the type cannot be read at all (a server bug, answered with 500)
     */
    public T decode(HttpData data) {
        return data.read(this::decode);
    }

    private T decode(byte[] bytes, int offset, int length) {
        ObjectReader reader = reader();
        try (JsonParser parser = reader.createParser(bytes, offset, length)) {
            if (parser.nextToken() == null) {
                throw new InvalidInputException("The request content is empty; expected JSON.");
            }
            T value = reader.readValue(parser);
            if (parser.nextToken() != null) {
                throw new InvalidInputException("Malformed JSON at "
                        + new JsonText(bytes, offset, length).where(parser.currentTokenLocation())
                        + ": unexpected content after the JSON value.");
            }
            if (value == null) {
                throw new InvalidInputException("The request content must not be the JSON null.");
            }
            return value;
        } catch (JsonProcessingException e) {
            throw DecodeFailures.of(e, new JsonText(bytes, offset, length));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // reading from an array does no I/O
        }
    }

    private ObjectReader reader() {
        ObjectReader prepared = reader;
        if (prepared == null) {
            prepared = mapper.readerFor(type);
            reader = prepared;
        }
        return prepared;
    }
}
