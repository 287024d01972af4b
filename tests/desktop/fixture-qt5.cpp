/*
 * A small, deterministic Qt 5 app for the desktop tests, the sibling of
 * fixture-gtk3 and fixture-gtk4: a menu bar with a submenu and a radio
 * group, a row of push buttons with serial numbers, check boxes, a group
 * box "Card" around a button "Inside", a line
 * edit, a plain-text editor that logs the keys Return and Tab, and a list
 * with extended selection. With --extras, a tool button "Ask" whose handler
 * asks a modal question (QMessageBox::question, its own loop inside the
 * click's handler) and prints "asking", then "asked yes|no|other".
 * Every user-visible effect is printed on stdout
 * as one line; commands on stdin mutate the window (the button-row
 * commands are fixture-gtk3's).
 *
 * Commands (one per line on stdin):
 *   title TEXT            set the window title
 *   rename NAME NEW       relabel the button called NAME (the last one)
 *   remove NAME           destroy the button called NAME (the last one)
 *   insert NAME           add a button NAME at the start of the button row
 *   append NAME           add a button NAME at the end of the button row
 *   reverse               reverse the order of the button row
 *   move NAME INDEX       move the button called NAME to position INDEX
 *   toggle NAME           toggle the check box called NAME
 *   select-row N          select list row N (and only it)
 *   quit                  exit 0
 * Each command ends with a line "done <command>".
 *
 * No moc: signals are connected to lambdas.
 *
 * SPDX-License-Identifier: MIT
 */
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSocketNotifier>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidget>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

#include "fixture-say.h"

static QMainWindow *window;
static QHBoxLayout *button_row;
static QWidget *check_row;
static QListWidget *list;
static int next_serial = 1;

/* The plain-text editor logs Return and Tab as it receives them. */
class Notes : public QPlainTextEdit
{
      protected:
	void
	keyPressEvent(QKeyEvent *e) override
	{
		if (e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter)
			say("key Return");
		else if (e->key() == Qt::Key_Tab)
			say("key Tab");
		QPlainTextEdit::keyPressEvent(e);
	}
};

static QPushButton *
add_button(const char *label, bool at_start)
{
	QPushButton *b = new QPushButton(QString::fromUtf8(label));
	int serial = next_serial++;

	QObject::connect(b, &QPushButton::clicked, [b, serial]() {
		say("clicked %s #%d", b->text().toUtf8().constData(), serial);
	});
	button_row->insertWidget(at_start ? 0 : button_row->count(), b);
	return b;
}

static QPushButton *
find_button(const char *label)
{
	QPushButton *found = nullptr;

	for (int i = 0; i < button_row->count(); i++) {
		auto *b = qobject_cast<QPushButton *>(
			button_row->itemAt(i)->widget());

		if (b && b->text() == QString::fromUtf8(label))
			found = b;
	}
	return found;
}

/* The accessible children of a widget come in QObject order, not in
 * layout order: raising each button in layout order makes them agree. */
static void
sync_order(void)
{
	for (int i = 0; i < button_row->count(); i++)
		button_row->itemAt(i)->widget()->raise();
}

static void
command(const std::string &line)
{
	std::string w0, w1, rest;
	size_t sp = line.find(' ');

	w0 = line.substr(0, sp);
	if (sp != std::string::npos) {
		rest = line.substr(sp + 1);
		size_t sp2 = rest.find(' ');
		w1 = rest.substr(0, sp2);
		rest = sp2 == std::string::npos ? "" : rest.substr(sp2 + 1);
	}
	if (w0 == "title") {
		std::string t = w1 + (rest.empty() ? "" : " " + rest);

		window->setWindowTitle(QString::fromUtf8(t.c_str()));
	} else if (w0 == "rename" && !w1.empty() && !rest.empty()) {
		if (QPushButton *b = find_button(w1.c_str()))
			b->setText(QString::fromUtf8(rest.c_str()));
	} else if (w0 == "remove" && !w1.empty()) {
		if (QPushButton *b = find_button(w1.c_str())) {
			button_row->removeWidget(b);
			delete b;
		}
	} else if (w0 == "insert" && !w1.empty()) {
		add_button(w1.c_str(), true);
	} else if (w0 == "append" && !w1.empty()) {
		add_button(w1.c_str(), false);
	} else if (w0 == "move" && !w1.empty() && !rest.empty()) {
		if (QPushButton *b = find_button(w1.c_str())) {
			button_row->removeWidget(b);
			int to = atoi(rest.c_str());

			button_row->insertWidget(to > button_row->count() ?
							 button_row->count() :
							 to,
						 b);
		}
	} else if (w0 == "reverse") {
		int n = button_row->count();

		for (int i = 0; i < n; i++) {
			QWidget *b = button_row->itemAt(n - 1)->widget();

			button_row->removeWidget(b);
			button_row->insertWidget(i, b);
		}
	} else if (w0 == "toggle" && !w1.empty()) {
		std::string name = w1 + (rest.empty() ? "" : " " + rest);

		for (QCheckBox *c : check_row->findChildren<QCheckBox *>())
			if (c->text() == QString::fromUtf8(name.c_str()))
				c->toggle();
	} else if (w0 == "select-row" && !w1.empty()) {
		list->clearSelection();
		if (QListWidgetItem *it = list->item(atoi(w1.c_str())))
			it->setSelected(true);
	} else if (w0 == "quit") {
		QApplication::quit();
	}
	sync_order();
	say("done %s", w0.c_str());
}

static QMenuBar *
make_menu_bar(void)
{
	QMenuBar *bar = new QMenuBar;
	QMenu *file = bar->addMenu("File"),
	      *settings = bar->addMenu("Settings");
	QMenu *angle = settings->addMenu("Angle Unit");
	QActionGroup *group = new QActionGroup(angle);

	for (const char *name : { "New", "Open" })
		QObject::connect(file->addAction(name), &QAction::triggered,
				 [name]() { say("menu %s", name); });
	for (const char *name : { "Degree", "Radian" }) {
		QAction *a = angle->addAction(name);

		a->setCheckable(true);
		a->setChecked(strcmp(name, "Degree") == 0);
		group->addAction(a);
		QObject::connect(a, &QAction::triggered,
				 [name]() { say("angle %s", name); });
	}
	QObject::connect(settings->addAction("Language..."),
			 &QAction::triggered,
			 []() { say("menu Language..."); });
	return bar;
}

int
main(int argc, char **argv)
{
	setenv("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1", 1);
	setenv("QT_ACCESSIBILITY", "1", 1);
	QApplication app(argc, argv);
	QApplication::setApplicationName("fixture-qt5");
	QWidget *central = new QWidget;
	QVBoxLayout *vbox = new QVBoxLayout(central);
	QWidget *row = new QWidget;
	QHBoxLayout *checks;
	QLineEdit *entry = new QLineEdit("hello fixture");
	Notes *notes = new Notes;
	QHBoxLayout *bottom = new QHBoxLayout;

	window = new QMainWindow;
	window->setWindowTitle("libcua fixture qt5");
	window->setMenuBar(make_menu_bar());
	window->setCentralWidget(central);

	button_row = new QHBoxLayout(row);
	vbox->addWidget(row);
	add_button("Alpha", false);
	add_button("Beta", false);
	add_button("Gamma", false);

	check_row = new QWidget;
	checks = new QHBoxLayout(check_row);
	for (const char *name : { "Check me", "Unchecked box" }) {
		QCheckBox *c = new QCheckBox(name);

		c->setChecked(strcmp(name, "Check me") == 0);
		QObject::connect(c, &QCheckBox::toggled, [name](bool on) {
			say("toggled %s %s", name, on ? "on" : "off");
		});
		checks->addWidget(c);
	}
	vbox->addWidget(check_row);
	{
		/* a named container with no action around a button */
		QGroupBox *card = new QGroupBox("Card");
		QHBoxLayout *in = new QHBoxLayout(card);
		QPushButton *inside = new QPushButton("Inside");

		QObject::connect(inside, &QPushButton::clicked,
				 []() { say("clicked Inside"); });
		in->addWidget(inside);
		vbox->addWidget(card);
	}

	entry->setAccessibleName("Name");
	QObject::connect(entry, &QLineEdit::textChanged, [](const QString &t) {
		say("entry %s", t.toUtf8().constData());
	});
	QObject::connect(entry, &QLineEdit::returnPressed, [entry]() {
		say("activate entry %s", entry->text().toUtf8().constData());
	});
	vbox->addWidget(entry);

	notes->setAccessibleName("Notes");
	QObject::connect(notes, &QPlainTextEdit::textChanged, [notes]() {
		QByteArray t = notes->toPlainText().toUtf8();
		std::string esc;

		for (char c : t)
			esc += c == '\n' ? std::string("\\n") :
			       c == '\t' ? std::string("\\t") :
					   std::string(1, c);
		say("text %s", esc.c_str());
	});
	bottom->addWidget(notes);
	list = new QListWidget;
	list->setAccessibleName("Rows");
	list->setSelectionMode(QAbstractItemView::ExtendedSelection);
	for (int i = 0; i < 12; i++)
		list->addItem(QString::asprintf("Row %02d", i));
	QObject::connect(list, &QListWidget::itemSelectionChanged, []() {
		std::string s = "selection";

		for (int i = 0; i < list->count(); i++)
			if (list->item(i)->isSelected())
				s += " " + std::to_string(i);
		say("%s", list->selectedItems().isEmpty() ? "selection none" :
							    s.c_str());
	});
	QObject::connect(list, &QListWidget::itemActivated,
			 [](QListWidgetItem *it) {
				 say("row-activated %d", list->row(it));
			 });
	bottom->addWidget(list);
	vbox->addLayout(bottom);
	if (argc > 1 && strcmp(argv[1], "--extras") == 0) {
		/* a tool button: its press action clicks it at once (a push
		 * button's animates the click, and the handler runs later) */
		QToolButton *ask = new QToolButton;
		QAction *act = new QAction("Ask", ask);

		ask->setDefaultAction(act);
		QObject::connect(act, &QAction::triggered, []() {
			say("asking");
			QMessageBox::StandardButton r = QMessageBox::question(
				window, "Question", "Go on?",
				QMessageBox::Yes | QMessageBox::No);
			say("asked %s", r == QMessageBox::Yes ? "yes" :
					r == QMessageBox::No  ? "no" :
								"other");
		});
		vbox->addWidget(ask);
	}

	window->resize(700, 500);
	window->show();

	QSocketNotifier stdin_notifier(0, QSocketNotifier::Read);
	std::string pending;
	QObject::connect(&stdin_notifier, &QSocketNotifier::activated,
			 [&pending, &stdin_notifier]() {
				 char buf[4096];
				 ssize_t n = read(0, buf, sizeof(buf));

				 if (n <= 0) {
					 stdin_notifier.setEnabled(false);
					 QApplication::quit();
					 return;
				 }
				 pending.append(buf, (size_t)n);
				 for (size_t nl; (nl = pending.find('\n')) !=
						 std::string::npos;) {
					 std::string line =
						 pending.substr(0, nl);

					 pending.erase(0, nl + 1);
					 command(line);
				 }
			 });
	say("ready");
	return app.exec();
}
