/*
 * A stand-in, not VASSAL code: our own minimal declaration with the signature VASSAL has
 * (checked against VASSAL 3.7.26 and 3.8.0-beta1-14-g17fb917c5 by StandInCheck, see
 * docs/vassal.md), so that `npm run test:java` compiles the adapter in clients/java/vassal on
 * every run. Only what the adapter uses, overrides or must implement is declared; bodies only
 * throw. Never on a module's class path: in VASSAL the real class is used.
 */
package VASSAL.preferences;

import VASSAL.configure.Configurer;
import java.io.IOException;

public class Prefs {
  public void addOption(String category, Configurer o) {
    throw new UnsupportedOperationException("stand-in");
  }

  public synchronized void setValue(String option, Object value) {
    throw new UnsupportedOperationException("stand-in");
  }

  public synchronized Object getValue(String key) {
    throw new UnsupportedOperationException("stand-in");
  }

  public synchronized void save() throws IOException {
    throw new UnsupportedOperationException("stand-in");
  }
}
