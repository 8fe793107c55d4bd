/**
 * The gateway's configuration file: an immutable model of records ({@link
 * io.parry.gateway.internal.config.GatewayConfig} and its parts, compared by value so that a reload can
 * tell what changed) and the loader that makes it.
 *
 * <p>Loading runs in three steps, each collecting errors instead of stopping at the first: placeholders
 * are substituted in the raw text ({@code Substitution}), the YAML is read into a tree that remembers
 * lines and columns ({@code YamlTreeReader}), and the tree is read into the model, section by section,
 * with every value checked ({@code GatewayConfigReader} and the readers it calls). Each error is one
 * sentence at the line and column where the user made the mistake.
 */
package io.parry.gateway.internal.config;
