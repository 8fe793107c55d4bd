package io.parry.json;

import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.Problem;
import java.util.List;

/**
 * The request content cannot be used: malformed JSON, a value of the wrong type, or an input that
 * failed validation. A typed JSON endpoint answers it with a 400 problem whose {@code detail} is this
 * exception's message and whose {@code errors} member lists {@link #errors()}; handlers may throw it
 * for checks of their own. Elsewhere it is an ordinary {@link HttpStatusException} (400, detail only).
 *
 * <pre>{@code
 * throw new InvalidInputException("The todo is invalid.",
 *         List.of(Problem.FieldError.of("dueDate", "must not be before the start date", input.dueDate())));
 * }</pre>
 */
public class InvalidInputException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    private final transient List<Problem.FieldError> errors;

    /** An exception with a detail the client may read and no field errors. */
    public InvalidInputException(String detail) {
        this(detail, List.of());
    }

    /** An exception with a detail the client may read and the fields at fault. */
    public InvalidInputException(String detail, List<Problem.FieldError> errors) {
        super(HttpStatus.BAD_REQUEST, detail);
        this.errors = List.copyOf(errors);
    }

    /** The fields at fault; may be empty. */
    public List<Problem.FieldError> errors() {
        return errors;
    }
}
