package io.parry.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value a query, header or cookie parameter takes when the request has none; checked against the
 * parameter's type at compile time.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Default {
    /** The value, as it would arrive in the request. */
    String value();
}
