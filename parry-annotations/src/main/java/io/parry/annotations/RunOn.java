package io.parry.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the method on the executor registered under this name with {@link
 * io.parry.server.routing.Router.Builder#executor}; an unknown name fails the router's build.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface RunOn {
    /** The executor's name. */
    String value();
}
