package io.parry.annotations.spi;

import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import java.util.Optional;

/** Turns the return values of generated controller routes into outputs; for generated code, not an API. */
public final class Results {
    private Results() {}

    /** The value; a 404 when the optional is empty. */
    public static <T> T found(Optional<T> value) {
        return value.orElseThrow(Results::notFound);
    }

    private static HttpStatusException notFound() {
        return new HttpStatusException(HttpStatus.NOT_FOUND, "There is nothing at this URL.");
    }
}
