package io.parry.annotations;

import io.parry.server.ErrorHandler;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Error handlers for the route's failures: a method's are asked before its controller's. Each class
 * needs a constructor without parameters; one instance per class is made when the routes are added.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ErrorHandlers {
    /** The error handlers, asked in this order. */
    Class<? extends ErrorHandler>[] value();
}
