/**
 * A tiny web app for the integration tests, written once against jakarta.servlet. The build
 * relocates it to javax.servlet (classifier {@code javax}) for the javax containers, so both APIs
 * run the same source. Servlets are registered by the generated web.xml, not by annotations.
 */
package dev.sluice.it.app;
