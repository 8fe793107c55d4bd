package io.parry.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds the parameter to a path parameter of the route's pattern, converted to its type ({@code String},
 * {@code int}, {@code long}, {@code double}, {@code boolean}, their wrappers, {@code UUID} or an enum);
 * a value that does not convert is a 400 naming the parameter.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface PathParam {
    /** The name in the pattern; empty for the Java parameter's name. */
    String value() default "";
}
