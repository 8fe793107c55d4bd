package io.parry.json.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.parry.http.HttpStatusException;
import io.parry.http.Problem.FieldError;
import io.parry.json.InvalidInputException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns Jackson's read failures into what the client may see. A syntax error keeps Jackson's message
 * (it only describes the client's own text), less its hints about parser features, with the line and
 * column (in characters); a binding error, a number out of range included, names the field and the
 * JSON type it must have, never a Java class; a type Jackson cannot read at all is a server bug and
 * stays an exception for the server to log and answer with 500.
 */
final class DecodeFailures {
    /** Jackson's own mention of a place, such as where an unclosed object started. */
    private static final Pattern SOURCE = Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)]");
    /** Jackson's advice to enable a parser feature, which names Jackson's classes and is no use to a client. */
    private static final Pattern FEATURE_HINT = Pattern.compile(": enable `[^`]*` to allow"
            + "| \\(consider enabling `[^`]*`[^)]*\\)"
            + "| \\(not recognized as one since Feature '[^']*' not enabled for parser\\)");

    private DecodeFailures() {}

    static RuntimeException of(JsonProcessingException e, JsonText text) {
        if (e instanceof InputCoercionException || e.getCause() instanceof InputCoercionException) {
            return outOfRange(e, text);
        }
        if (e instanceof DatabindException
                && e.getCause() instanceof JsonProcessingException
                && !(e.getCause() instanceof DatabindException)) {
            // A syntax error met while binding a nested value, wrapped to carry the path.
            return of((JsonProcessingException) e.getCause(), text);
        }
        if (e instanceof InvalidDefinitionException) {
            return new UncheckedIOException(e);
        }
        if (e instanceof StreamConstraintsException) {
            return new InvalidInputException(
                    "The JSON exceeds a parser limit (nesting depth, or the length of a number, string or name).");
        }
        if (!(e instanceof DatabindException)) {
            return new InvalidInputException(
                    "Malformed JSON at " + text.where(e.getLocation()) + ": " + reason(e, text));
        }
        JsonMappingException mapping = (JsonMappingException) e;
        String field = path(mapping.getPath());
        if (e instanceof UnrecognizedPropertyException) {
            return new InvalidInputException(
                    "Unknown field '" + field + "' at " + text.where(e.getLocation()) + ".",
                    List.of(FieldError.of(field, "is not a known field")));
        }
        if (e instanceof ValueInstantiationException && e.getCause() instanceof HttpStatusException) {
            return (HttpStatusException) e.getCause();
        }
        String message = e instanceof MismatchedInputException
                ? mustBe(((MismatchedInputException) e).getTargetType())
                : "is not valid";
        return invalidValue(field, message, e.getLocation(), text, fieldError(field, message, e));
    }

    /**
     * A number too large for its field (Jackson's message names the Java type), placed at the number's
     * start like other binding errors.
     */
    private static InvalidInputException outOfRange(JsonProcessingException e, JsonText text) {
        String field = e instanceof JsonMappingException ? path(((JsonMappingException) e).getPath()) : "";
        JsonProcessingException coercion =
                e instanceof InputCoercionException ? e : (JsonProcessingException) e.getCause();
        JsonLocation location = coercion.getProcessor() instanceof JsonParser
                ? ((JsonParser) coercion.getProcessor()).currentTokenLocation()
                : e.getLocation();
        return invalidValue(field, "is out of range", location, text, FieldError.of(field, "is out of range"));
    }

    private static InvalidInputException invalidValue(
            String field, String message, JsonLocation location, JsonText text, FieldError error) {
        if (field.isEmpty()) {
            return new InvalidInputException("The request content " + message + " (at " + text.where(location) + ").");
        }
        return new InvalidInputException(
                "Invalid value for field '" + field + "' at " + text.where(location) + ".", List.of(error));
    }

    /**
     * Jackson's message without its location suffix and feature hints, places inside it written as ours,
     * ending in a period (or Jackson's question mark).
     */
    static String reason(JsonProcessingException e, JsonText text) {
        String message = e.getOriginalMessage();
        if (message == null || message.isEmpty()) {
            return "not JSON.";
        }
        message = FEATURE_HINT.matcher(message).replaceAll("");
        Matcher source = SOURCE.matcher(message);
        StringBuilder out = new StringBuilder();
        while (source.find()) {
            source.appendReplacement(
                    out,
                    Matcher.quoteReplacement(
                            text.place(Integer.parseInt(source.group(1)), Integer.parseInt(source.group(2)))));
        }
        source.appendTail(out);
        return message.endsWith(".") || message.endsWith("?")
                ? out.toString()
                : out.append('.').toString();
    }

    /** The field as a path: {@code address.city}, {@code items[2].quantity}, {@code [0].name}. */
    static String path(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static FieldError fieldError(String field, String message, JsonProcessingException e) {
        if (e instanceof InvalidFormatException) {
            Object value = ((InvalidFormatException) e).getValue();
            if (FieldError.isScalar(value)) {
                return FieldError.of(field, message, value);
            }
        }
        return FieldError.of(field, message);
    }

    /** What the JSON value must be, in JSON's terms. */
    static String mustBe(Class<?> type) {
        if (type == null) {
            return "has the wrong type";
        }
        if (type == String.class || type == char.class || type == Character.class) {
            return "must be a string";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "must be a boolean";
        }
        if (type == int.class
                || type == long.class
                || type == short.class
                || type == byte.class
                || type == Integer.class
                || type == Long.class
                || type == Short.class
                || type == Byte.class
                || type == BigInteger.class) {
            return "must be an integer";
        }
        if (type == double.class
                || type == float.class
                || type == Double.class
                || type == Float.class
                || type == BigDecimal.class
                || type == Number.class) {
            return "must be a number";
        }
        if (type.isEnum()) {
            return "must be one of the allowed values";
        }
        if ((type.isArray() && type != byte[].class) || Collection.class.isAssignableFrom(type)) {
            return "must be an array";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord() || !isJdkType(type)) {
            return "must be an object";
        }
        return "has the wrong type";
    }

    private static boolean isJdkType(Class<?> type) {
        String name = type.getName();
        return type.isPrimitive() || name.startsWith("java.") || name.startsWith("javax.");
    }
}
