package io.parry.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds the parameter to the request content read as JSON (415 when it is not JSON, 413 past the
 * limit, 400 when it does not fit the type) and validated when the type carries Jakarta constraints
 * and the endpoints have a validator.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Body {}
