package io.parry.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.parry.http.HttpData;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.Problem.FieldError;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCodecTest {
    record Item(String name, int quantity) {}

    record Order(String customer, List<Item> items, Kind kind) {}

    enum Kind {
        PICKUP,
        DELIVERY
    }

    record Checked(String code) {
        Checked {
            if (code.startsWith("!")) {
                throw new HttpStatusException(HttpStatus.CONFLICT, "Code taken.");
            }
            if (code.startsWith("?")) {
                throw new IllegalArgumentException("secret internal reason");
            }
        }
    }

    interface Shape {}

    private final JsonCodec codec = JsonCodec.ofDefault();

    @Test
    void readsARecordFromUtf8Bytes() {
        Order order = read("{\"customer\":\"Zoë\",\"items\":[{\"name\":\"tea\",\"quantity\":2}],\"kind\":\"PICKUP\"}");

        assertThat(order).isEqualTo(new Order("Zoë", List.of(new Item("tea", 2)), Kind.PICKUP));
    }

    @Test
    void readsFromASliceOfALargerArray() {
        byte[] bytes = "xx{\"name\":\"tea\",\"quantity\":1}yy".getBytes(java.nio.charset.StandardCharsets.UTF_8);

        Item item = codec.read(HttpData.wrap(bytes, 2, bytes.length - 4), Item.class);

        assertThat(item).isEqualTo(new Item("tea", 1));
    }

    @Test
    void ignoresUnknownPropertiesByDefault() {
        assertThat(codec.read(HttpData.ofUtf8("{\"name\":\"tea\",\"colour\":\"green\",\"quantity\":1}"), Item.class))
                .isEqualTo(new Item("tea", 1));
    }

    @Test
    void namesTheUnknownPropertyWhenTheMapperRefusesThem() {
        JsonCodec strict = JsonCodec.of(JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build());

        InvalidInputException e = catchThrowableOfType(
                InvalidInputException.class,
                () -> strict.read(HttpData.ofUtf8("{\"items\":[{\"nam\":\"tea\"}]}"), Order.class));

        assertThat(e.detail()).isEqualTo("Unknown field 'items[0].nam' at line 1, column 24.");
        assertThat(e.errors()).containsExactly(FieldError.of("items[0].nam", "is not a known field"));
    }

    @Test
    void malformedJsonNamesTheLineAndColumn() {
        InvalidInputException e = invalid("{\n  \"customer\": \"a\",\n  \"items\": [}\n}");

        assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(e.detail()).startsWith("Malformed JSON at line 3, column 13: Unexpected close marker '}'");
        assertThat(e.errors()).isEmpty();
    }

    @Test
    void truncatedJsonIsMalformed() {
        assertThat(invalid("{\"customer\":").detail())
                .startsWith("Malformed JSON at line 1, column 13: Unexpected end-of-input");
    }

    @Test
    void placesInJacksonsMessagesAreWrittenWithoutTheSource() {
        assertThat(invalid("{\"items\":[\n{\"name\":\"a\"}").detail())
                .isEqualTo("Malformed JSON at line 2, column 13: Unexpected end-of-input: expected close marker"
                        + " for Array (start marker at line 1, column 10).")
                .doesNotContain("Source", "REDACTED", "StreamReadFeature");
    }

    @Test
    void columnsCountCharactersNotUtf8Bytes() {
        assertThat(invalid("{\"customer\":\"Zoë née Ürün\",\n \"customer\": \"ü\", \"kind\": x}")
                        .detail())
                .startsWith("Malformed JSON at line 2, column 27: Unrecognized token 'x'");
        assertThat(invalid("{\"customer\":\"日本\",\"items\":5}").detail())
                .isEqualTo("Invalid value for field 'items' at line 1, column 26.");
        assertThat(invalid("{\"customer\":\"\uD83D\uDE00\"} {}").detail())
                .isEqualTo("Malformed JSON at line 1, column 18: unexpected content after the JSON value.");
        assertThat(invalid("{\"customer\":\"é\",\"items\":[\n{\"name\":\"ü\"}").detail())
                .isEqualTo("Malformed JSON at line 2, column 13: Unexpected end-of-input: expected close marker"
                        + " for Array (start marker at line 1, column 25).");
    }

    @Test
    void aNumberOutOfRangeNamesTheFieldAndNoJavaType() {
        InvalidInputException e =
                invalid("{\"items\":[{\"name\":\"a\",\"quantity\":1},{\"name\":\"b\",\"quantity\":99999999999}]}");

        assertThat(e.detail()).isEqualTo("Invalid value for field 'items[1].quantity' at line 1, column 60.");
        assertThat(e.errors()).containsExactly(FieldError.of("items[1].quantity", "is out of range"));
        assertThat(catchThrowableOfType(
                                InvalidInputException.class,
                                () -> codec.read(HttpData.ofUtf8("99999999999"), Integer.class))
                        .detail())
                .isEqualTo("The request content is out of range (at line 1, column 1).");
    }

    @Test
    void malformedJsonNamesNoJacksonFeature() {
        assertThat(invalid("{\"customer\": NaN}").detail())
                .isEqualTo("Malformed JSON at line 1, column 17: Non-standard token 'NaN'.");
        assertThat(invalid("{\"customer\": +1}").detail()).doesNotContain("JsonReadFeature", "`");
        assertThat(invalid("{} // comment").detail())
                .isEqualTo("Malformed JSON at line 1, column 4: Unexpected character ('/' (code 47)):"
                        + " maybe a (non-standard) comment?");
    }

    @Test
    void wrongTypeNamesTheFieldAndTheJsonTypeItMustHave() {
        InvalidInputException e =
                invalid("{\"items\":[{\"name\":\"a\",\"quantity\":1},{\"name\":\"b\",\"quantity\":\"two\"}]}");

        assertThat(e.detail()).isEqualTo("Invalid value for field 'items[1].quantity' at line 1, column 60.");
        assertThat(e.errors()).containsExactly(FieldError.of("items[1].quantity", "must be an integer", "two"));
    }

    @Test
    void wrongStructureNamesTheField() {
        assertThat(invalid("{\"customer\":{\"name\":\"x\"}}").errors())
                .containsExactly(FieldError.of("customer", "must be a string"));
        assertThat(invalid("{\"items\":{}}").errors()).containsExactly(FieldError.of("items", "must be an array"));
        assertThat(invalid("{\"items\":[5]}").errors()).containsExactly(FieldError.of("items[0]", "must be an object"));
        assertThat(invalid("{\"kind\":\"TELEPORT\"}").errors())
                .containsExactly(FieldError.of("kind", "must be one of the allowed values", "TELEPORT"));
    }

    @Test
    void aMissingOrNullPrimitiveIsZeroUnlessTheMapperRefusesNull() {
        assertThat(codec.read(HttpData.ofUtf8("{\"name\":\"a\"}"), Item.class)).isEqualTo(new Item("a", 0));
        assertThat(codec.read(HttpData.ofUtf8("{\"quantity\":null}"), Item.class))
                .isEqualTo(new Item(null, 0));
        JsonCodec strict = JsonCodec.of(JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .build());

        assertThatThrownBy(() -> strict.read(HttpData.ofUtf8("{\"quantity\":null}"), Item.class))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errors())
                        .containsExactly(FieldError.of("quantity", "must be an integer")));
    }

    @Test
    void wrongTypeForTheWholeContentHasNoFieldErrors() {
        InvalidInputException e = invalid("[1,2]");

        assertThat(e.detail()).isEqualTo("The request content must be an object (at line 1, column 1).");
        assertThat(e.errors()).isEmpty();
    }

    @Test
    void refusesEmptyContentTrailingContentAndNull() {
        assertThat(invalid("").detail()).isEqualTo("The request content is empty; expected JSON.");
        assertThat(invalid("  \n ").detail()).isEqualTo("The request content is empty; expected JSON.");
        assertThat(invalid("{} {}").detail())
                .isEqualTo("Malformed JSON at line 1, column 4: unexpected content after the JSON value.");
        assertThat(invalid("{}]").detail()).startsWith("Malformed JSON at line 1, column 3: Unexpected close marker");
        assertThat(invalid("null").detail()).isEqualTo("The request content must not be the JSON null.");
    }

    @Test
    void jsonNestedPastTheParserLimitIs400() {
        String deep = "[".repeat(1001) + "]".repeat(1001);

        assertThatThrownBy(() -> codec.read(HttpData.ofUtf8(deep), JsonNode.class))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage(
                        "The JSON exceeds a parser limit (nesting depth, or the length of a number, string or name).");
    }

    @Test
    void aStatusExceptionFromAConstructorIsKept() {
        assertThatThrownBy(() -> codec.read(HttpData.ofUtf8("{\"code\":\"!a\"}"), Checked.class))
                .isInstanceOf(HttpStatusException.class)
                .hasMessage("Code taken.");
    }

    @Test
    void anyOtherConstructorFailureIsA400ThatRevealsNothing() {
        InvalidInputException e = catchThrowableOfType(
                InvalidInputException.class, () -> codec.read(HttpData.ofUtf8("{\"code\":\"?a\"}"), Checked.class));

        assertThat(e.detail()).isEqualTo("The request content is not valid (at line 1, column 13).");
        assertThat(e.detail() + e.errors()).doesNotContain("secret", "Exception", "Checked");
    }

    @Test
    void aTypeJacksonCannotReadIsAServerBugNotA400() {
        assertThatThrownBy(() -> codec.read(HttpData.ofUtf8("{}"), Shape.class))
                .isInstanceOf(UncheckedIOException.class)
                .isNotInstanceOf(HttpStatusException.class);
    }

    @Test
    void writesUtf8Json() {
        HttpData data = codec.write(Map.of("name", "café"));

        assertThat(data.toStringUtf8()).isEqualTo("{\"name\":\"café\"}");
        assertThat(data.length()).isEqualTo(16);
    }

    @Test
    void writeFailureIsAnUncheckedIoException() {
        assertThatThrownBy(() -> codec.write(new Object())).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void ofUsesTheGivenMapper() {
        JsonMapper mapper = JsonMapper.builder().build();

        assertThat(JsonCodec.of(mapper).mapper()).isSameAs(mapper);
        assertThat(JsonCodec.ofDefault().mapper())
                .isNotSameAs(JsonCodec.ofDefault().mapper());
        assertThatThrownBy(() -> JsonCodec.of(null)).hasMessage("mapper");
    }

    private Order read(String json) {
        return codec.read(HttpData.ofUtf8(json), Order.class);
    }

    private InvalidInputException invalid(String json) {
        return catchThrowableOfType(InvalidInputException.class, () -> read(json));
    }
}
