/*
 * A stand-in, not VASSAL code: our own minimal declaration with the signature VASSAL has
 * (checked against VASSAL 3.7.26 and 3.8.0-beta1-14-g17fb917c5 by StandInCheck, see
 * docs/vassal.md), so that `npm run test:java` compiles the adapter in clients/java/vassal on
 * every run. Only what the adapter uses, overrides or must implement is declared; bodies only
 * throw. Never on a module's class path: in VASSAL the real class is used.
 */
package VASSAL.build;

import VASSAL.build.module.Chatter;
import VASSAL.command.Command;
import VASSAL.command.CommandEncoder;
import VASSAL.launch.PlayerWindow;
import VASSAL.preferences.Prefs;

public class GameModule {
  public PlayerWindow getPlayerWindow() {
    throw new UnsupportedOperationException("stand-in");
  }

  public void addCommandEncoder(CommandEncoder ce) {
    throw new UnsupportedOperationException("stand-in");
  }

  public void removeCommandEncoder(CommandEncoder ce) {
    throw new UnsupportedOperationException("stand-in");
  }

  public void warn(String s) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Chatter getChatter() {
    throw new UnsupportedOperationException("stand-in");
  }

  public void sendAndLog(Command c) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Prefs getPrefs() {
    throw new UnsupportedOperationException("stand-in");
  }

  public Object getProperty(Object key) {
    throw new UnsupportedOperationException("stand-in");
  }

  public static GameModule getGameModule() {
    throw new UnsupportedOperationException("stand-in");
  }
}
