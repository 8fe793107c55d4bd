package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpDataTest {

    @Test
    void wrapDoesNotCopyTheArray() {
        byte[] bytes = {1, 2, 3};

        HttpData data = HttpData.wrap(bytes);
        bytes[0] = 9;

        assertThat(data.byteAt(0)).isEqualTo((byte) 9);
    }

    @Test
    void copyOfCopiesTheArray() {
        byte[] bytes = {1, 2, 3};

        HttpData data = HttpData.copyOf(bytes);
        bytes[0] = 9;

        assertThat(data.toByteArray()).containsExactly(1, 2, 3);
    }

    @Test
    void wrapOfAPartSeesOnlyThatPart() {
        HttpData data = HttpData.wrap("xabcx".getBytes(StandardCharsets.US_ASCII), 1, 3);

        assertThat(data.length()).isEqualTo(3);
        assertThat(data.toStringUtf8()).isEqualTo("abc");
        assertThat(data.toByteArray()).containsExactly('a', 'b', 'c');
    }

    @Test
    void wrapRejectsARangeOutsideTheArray() {
        byte[] bytes = new byte[4];

        assertThatThrownBy(() -> HttpData.wrap(bytes, -1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> HttpData.wrap(bytes, 1, -1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> HttpData.wrap(bytes, 2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void wrapRejectsARangeWhoseEndOverflows() {
        byte[] bytes = new byte[4];

        assertThatThrownBy(() -> HttpData.wrap(bytes, 1, Integer.MAX_VALUE))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void emptyInputGivesTheEmptyChunk() {
        assertThat(HttpData.wrap(new byte[0])).isSameAs(HttpData.empty());
        assertThat(HttpData.wrap(new byte[3], 3, 0)).isSameAs(HttpData.empty());
        assertThat(HttpData.ofUtf8("")).isSameAs(HttpData.empty());
        assertThat(HttpData.empty().isEmpty()).isTrue();
        assertThat(HttpData.empty().length()).isZero();
    }

    @Test
    void ofUtf8EncodesAndDecodesText() {
        HttpData data = HttpData.ofUtf8("caf\u00e9 \u20ac");

        assertThat(data.length()).isEqualTo(9);
        assertThat(data.toStringUtf8()).isEqualTo("caf\u00e9 \u20ac");
        assertThat(data.toString(StandardCharsets.ISO_8859_1)).startsWith("caf\u00c3\u00a9");
    }

    @Test
    void byteAtRejectsIndexOutOfRange() {
        HttpData data = HttpData.wrap(new byte[] {1, 2, 3, 4}, 1, 2);

        assertThat(data.byteAt(1)).isEqualTo((byte) 3);
        assertThatThrownBy(() -> data.byteAt(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> data.byteAt(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void toByteArrayReturnsACopy() {
        HttpData data = HttpData.ofUtf8("abc");

        data.toByteArray()[0] = 'z';

        assertThat(data.toStringUtf8()).isEqualTo("abc");
    }

    @Test
    void asByteBufferIsAReadOnlyViewOfThePart() {
        byte[] bytes = "xabcx".getBytes(StandardCharsets.US_ASCII);
        HttpData data = HttpData.wrap(bytes, 1, 3);

        ByteBuffer buffer = data.asByteBuffer();

        assertThat(buffer.isReadOnly()).isTrue();
        assertThat(buffer.position()).isZero();
        assertThat(buffer.remaining()).isEqualTo(3);
        assertThat(buffer.get(0)).isEqualTo((byte) 'a');
        assertThatThrownBy(() -> buffer.put(0, (byte) 'z')).isInstanceOf(ReadOnlyBufferException.class);
        bytes[1] = 'A';
        assertThat(buffer.get(0)).as("a view, not a copy").isEqualTo((byte) 'A');
    }

    @Test
    void readingAByteBufferLeavesTheChunkAndLaterBuffersUnchanged() {
        HttpData data = HttpData.ofUtf8("abc");

        ByteBuffer first = data.asByteBuffer();
        first.get(new byte[2]);

        assertThat(data.asByteBuffer().position()).isZero();
        assertThat(data.asByteBuffer().remaining()).isEqualTo(3);
        assertThat(data.length()).isEqualTo(3);
    }

    @Test
    void equalsAndHashCodeCompareTheVisibleBytes() {
        HttpData whole = HttpData.ofUtf8("abc");
        HttpData part = HttpData.wrap("-abc-".getBytes(StandardCharsets.US_ASCII), 1, 3);

        assertThat(part).isEqualTo(whole);
        assertThat(part.hashCode()).isEqualTo(whole.hashCode());
        assertThat(part).isNotEqualTo(HttpData.ofUtf8("abd")).isNotEqualTo(HttpData.ofUtf8("ab"));
        assertThat(part).isNotEqualTo("abc");
    }

    @Test
    void writeToWritesTheVisibleBytes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        HttpData.wrap("-abc-".getBytes(StandardCharsets.US_ASCII), 1, 3).writeTo(out);

        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("abc");
    }

    @Test
    void toStringShowsTheLengthNotTheBytes() {
        assertThat(HttpData.ofUtf8("secret")).hasToString("HttpData(6 bytes)");
    }

    @Test
    void handsItsBytesToAReaderInPlace() {
        byte[] backing = "xxhelloxx".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        HttpData data = HttpData.wrap(backing, 2, 5);

        String read = data.read((bytes, offset, length) -> {
            assertThat(bytes).isSameAs(backing);
            return new String(bytes, offset, length, java.nio.charset.StandardCharsets.US_ASCII);
        });

        assertThat(read).isEqualTo("hello");
    }
}
