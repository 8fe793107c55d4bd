package io.parry.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The media types the route produces, negotiated against {@code Accept} (406 when none fits), on a
 * method or for every method of a controller.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Produces {
    /** Media types such as {@code application/json}. */
    String[] value();
}
