package io.parry.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds the parameter to the cookie of this name, converted as for {@link PathParam}. Required (400
 * when missing) unless it has a {@link Default} or is an {@code Optional}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface CookieParam {
    /** The cookie's name; empty for the Java parameter's name. */
    String value() default "";
}
