/* mmtree on an Arduino Uno (ATmega328P, 16 MHz): plays every secret of the tree in
 * mmtree_tree.h, asking the tree for each next guess as a game would, and checks the
 * total, the worst case and the histogram against the figures the tree's header
 * records. It prints what it found on the serial port (115200 baud) with the cycles
 * each hint took, then sleeps.
 *
 * Open this folder in the Arduino IDE and upload, or build it with avr-gcc and run
 * it under simavr (README.md, "On a device"). Another tree (one that fits 32 KiB of
 * flash): mmlookup export FILE --format c > mmtree_tree.h
 *
 * The same source compiles on a PC (no __AVR__): it then prints to stdout, for the
 * tests. No heap, no Arduino library: the serial port and the cycle counter are
 * driven through their registers, and the texts stay in flash (PSTR) like the tree. */
#include "mmtree_tree.h"

#ifdef __AVR__
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

/* Timer 1 counts every CPU cycle; this counts its overflows (each 65,536 cycles). */
static volatile uint16_t overflows;

ISR(TIMER1_OVF_vect) { overflows++; }

static void start(void) {
    /* 115200 baud at 16 MHz with double speed: UBRR = 16e6 / (8 * 115200) - 1. */
    UCSR0A = _BV(U2X0);
    UBRR0 = 16;
    UCSR0B = _BV(TXEN0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    /* The Arduino core sets timer 1 up for PWM: take it back, undivided. */
    TCCR1A = 0;
    TCCR1B = _BV(CS10);
    TIMSK1 = _BV(TOIE1);
    sei();
}

static void put(char c) {
    while (!(UCSR0A & _BV(UDRE0))) {}
    UDR0 = c;
}

/* CPU cycles since start(), modulo 2^32. */
static uint32_t cycles(void) {
    uint8_t sreg = SREG;
    cli();
    uint16_t high = overflows, low = TCNT1;
    /* An overflow not yet counted: the timer wrapped after interrupts were off. */
    if ((TIFR1 & _BV(TOV1)) && low < 0x8000) high++;
    SREG = sreg;
    return ((uint32_t)high << 16) | low;
}

/* Text kept in flash: a 2 KiB RAM has no room to copy it. */
#define FLASH_TEXT(s) PSTR(s)
#define TEXT_BYTE(p) pgm_read_byte(p)

/* The stack's high-water mark, by painting: the free RAM between the statics and
 * the stack is filled with a pattern at start, and the lowest word no longer
 * holding it shows how deep the stack went. */
extern uint8_t __heap_start;
#define PAINT 0xa5

static void paint(void) {
    uint8_t *p = &__heap_start;
    /* Up to 32 bytes below the stack pointer: this function's own frame is above. */
    while (p < (uint8_t *)SP - 32) *p++ = PAINT;
}

static uint16_t stack_used(void) {
    const uint8_t *p = &__heap_start;
    while (p <= (const uint8_t *)RAMEND && *p == PAINT) p++;
    return (uint16_t)((const uint8_t *)RAMEND + 1 - p);
}

static void stop(void) {
    while (!(UCSR0A & _BV(UDRE0))) {}
    /* Sleeping with interrupts off ends a simavr run; a real board just stops. */
    cli();
    sleep_enable();
    sleep_cpu();
}
#else
#include <stdio.h>
static void start(void) {}
static void put(char c) { putchar(c); }
static uint32_t cycles(void) { return 0; }
static void stop(void) { fflush(stdout); }
#define FLASH_TEXT(s) (s)
#define TEXT_BYTE(p) (*(p))
static void paint(void) {}
#endif

/* Writes a FLASH_TEXT. */
static void text(const char *s) {
    char c;
    while ((c = (char)TEXT_BYTE(s++))) put(c);
}

static void number(uint32_t n) {
    char digits[10];
    uint8_t at = 0;
    do {
        digits[at++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (at) put(digits[--at]);
}

/* The longest game played: one guess less than the answers kept. */
#define MOVES 12

static uint32_t hints, hint_cycles;

/* Plays `secret` (a code index) through the tree, as a game asks it: a hint after
 * every answer, the winning one included (the tree then has no next guess: -1),
 * so a game of n guesses takes n + 1 hints, as the firmware counts them. The
 * number of guesses, or 0 if the tree has no branch for an answer, goes on after
 * a win, or needs MOVES guesses. */
static uint8_t play(uint32_t secret) {
    int code[MMTREE_PEGS], guess[MMTREE_PEGS], answers[MOVES];
    mmtree_code(secret, code);
    uint8_t won = 0;
    for (uint8_t n = 0; n < MOVES; n++) {
        uint32_t from = cycles();
        long next = mmtree_next(answers, n);
        hint_cycles += cycles() - from;
        hints++;
        if (won) return next < 0 ? n : 0;
        if (next < 0) return 0;
        mmtree_code((uint32_t)next, guess);
        int black, white;
        mmtree_score(guess, code, &black, &white);
        answers[n] = mmtree_answer(black, white);
        won = black == (int)MMTREE_PEGS;
    }
    return 0;
}

/* Reports one figure against the header's; whether they agree. */
static uint8_t same(const char *what, uint32_t played, uint32_t claimed) {
    if (played == claimed) return 1;
    text(FLASH_TEXT("error: the header claims "));
    text(what);
    text(FLASH_TEXT(" "));
    number(claimed);
    text(FLASH_TEXT(", playing every secret gave "));
    number(played);
    text(FLASH_TEXT("\n"));
    return 0;
}

void setup(void) {
    paint();
    start();
    static const uint32_t claimed[MMTREE_WORST] = MMTREE_HISTOGRAM;
    uint32_t histogram[MOVES] = {0}, total = 0, worst = 0, secret;
    uint8_t ok = 1;
#ifdef __AVR__
    text(FLASH_TEXT("chip        ATmega328P (Arduino Uno), 16 MHz\ntree        "));
#else
    text(FLASH_TEXT("chip        this computer (a test build)\ntree        "));
#endif
    number(MMTREE_PEGS);
    text(FLASH_TEXT("x"));
    number(MMTREE_COLORS);
    text(MMTREE_REPEAT ? FLASH_TEXT(", ") : FLASH_TEXT(" no-repeat, "));
    number(sizeof mmtree);
    text(FLASH_TEXT(" bytes\n"));
    for (secret = 0; secret < MMTREE_CODES; secret++) {
        uint8_t guesses = play(secret);
        if (guesses == 0) {
            text(FLASH_TEXT("error: the tree does not solve secret "));
            number(secret);
            text(FLASH_TEXT("\n"));
            ok = 0;
            break;
        }
        total += guesses;
        if (guesses > worst) worst = guesses;
        histogram[guesses - 1]++;
    }
    ok = ok && same(FLASH_TEXT("secrets"), secret, MMTREE_SECRETS) &&
         same(FLASH_TEXT("total"), total, MMTREE_TOTAL) &&
         same(FLASH_TEXT("worst case"), worst, MMTREE_WORST);
    for (uint8_t i = 0; ok && i < MMTREE_WORST; i++)
        ok = same(FLASH_TEXT("histogram entry"), histogram[i], claimed[i]);
    if (ok) {
        text(FLASH_TEXT("played      "));
        number(secret);
        text(FLASH_TEXT(" secrets: total "));
        number(total);
        text(FLASH_TEXT(", worst case "));
        number(worst);
        text(FLASH_TEXT(", as the header claims\nhistogram  "));
        for (uint8_t i = 0; i < worst; i++) {
            text(FLASH_TEXT(" "));
            number(i + 1);
            text(FLASH_TEXT(":"));
            number(histogram[i]);
        }
        text(FLASH_TEXT("\nnext        "));
        number(hint_cycles / hints);
        text(FLASH_TEXT(" cycles per hint on average ("));
        number(hints);
        text(FLASH_TEXT(" hints)\n"));
#ifdef __AVR__
        text(FLASH_TEXT("stack       "));
        number(stack_used());
        text(FLASH_TEXT(" bytes at most\n"));
#endif
    }
    text(ok ? FLASH_TEXT("ok\n") : FLASH_TEXT("FAILED\n"));
    stop();
}

void loop(void) {}
