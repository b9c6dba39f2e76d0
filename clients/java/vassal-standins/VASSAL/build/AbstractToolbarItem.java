/*
 * A stand-in, not VASSAL code: our own minimal declaration with the signature VASSAL has
 * (checked against VASSAL 3.7.26 and 3.8.0-beta1-14-g17fb917c5 by StandInCheck, see
 * docs/vassal.md), so that `npm run test:java` compiles the adapter in clients/java/vassal on
 * every run. Only what the adapter uses, overrides or must implement is declared; bodies only
 * throw. Never on a module's class path: in VASSAL the real class is used.
 */
package VASSAL.build;

import VASSAL.build.module.GameComponent;
import VASSAL.command.Command;
import VASSAL.tools.LaunchButton;
import java.awt.event.ActionListener;
import java.beans.PropertyChangeEvent;
import java.beans.PropertyChangeListener;

public abstract class AbstractToolbarItem extends AbstractConfigurable implements GameComponent, PropertyChangeListener {
  public static final String NAME          = "name";    //$NON-NLS-1$
  public static final String TOOLTIP       = "tooltip"; //$NON-NLS-1$
  public static final String BUTTON_TEXT   = "text";    //$NON-NLS-1$

  protected LaunchButton makeLaunchButton(String tooltip, String button_text, String iconFile, ActionListener action) {
    throw new UnsupportedOperationException("stand-in");
  }

  public LaunchButton getLaunchButton() {
    throw new UnsupportedOperationException("stand-in");
  }

  protected void setLaunchButton(LaunchButton launch) {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public void propertyChange(PropertyChangeEvent evt) {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public void setup(boolean gameStarting) {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public Command getRestoreCommand() {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public String[] getAttributeNames() {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public String[] getAttributeDescriptions() {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public Class<?>[] getAttributeTypes() {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public void setAttribute(String key, Object value) {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public String getAttributeValueString(String key) {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public void addTo(Buildable parent) {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public void removeFrom(Buildable parent) {
    throw new UnsupportedOperationException("stand-in");
  }
}
