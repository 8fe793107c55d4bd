package io.parry.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes the method a {@code POST} route at this path, under the controller's prefix.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Post {
    /** The path pattern, as {@link io.parry.server.routing.Router} reads it ("/{id}"); empty for the prefix itself. */
    String value() default "";
}
