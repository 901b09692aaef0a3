#!/usr/bin/perl
# MENACE, Donald Michie's matchbox machine, playing X against a person on stdin/stdout.
use strict;
use warnings;
use IO::Handle;

my @ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2);
my @MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6);
my @LINES = ([0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]);
my $LETTERS = "LMR";

srand(@ARGV >= 2 && $ARGV[0] eq "--seed" ? $ARGV[1] : time);

# Each symmetry as a source list: the image of board b takes cell i from b[source[i]].
sub then_ { my ($first, $second) = @_; return [map { $first->[$_] } @$second]; }
my @turns = ([0 .. 8]);
push @turns, then_($turns[-1], \@ROTATE) for 1 .. 3;
my @SYMMETRIES = (@turns, map { then_($_, \@MIRROR) } @turns);

sub image { my ($board, $source) = @_; return join "", map { substr($board, $_, 1) } @$source; }
sub marks { my ($board, $mark) = @_; return scalar(() = $board =~ /\Q$mark\E/g); }
sub empty_squares { my ($board) = @_; return grep { substr($board, $_, 1) eq "." } 0 .. 8; }
sub play { my ($board, $square, $mark) = @_; substr($board, $square, 1) = $mark; return $board; }

# The box label of a board (its least image) and the symmetry that carries it there.
sub label_of {
    my ($board) = @_;
    my ($best, $how);
    for my $source (@SYMMETRIES) {
        my $label = image($board, $source);
        ($best, $how) = ($label, $source) if !defined $best || $label lt $best;
    }
    return ($best, $how);
}

sub winner {
    my ($board) = @_;
    for my $line (@LINES) {
        my ($p, $q, $r) = map { substr($board, $_, 1) } @$line;
        return $p if $p ne "." && $p eq $q && $p eq $r;
    }
    return "";
}

sub is_over { my ($board) = @_; return winner($board) ne "" || index($board, ".") < 0; }

sub needs_box {
    my ($board) = @_;
    return marks($board, "X") == marks($board, "O") && winner($board) eq "" && marks($board, ".") >= 2;
}

# The 304 matchboxes, each empty square of a label holding 1 to 4 beads at random.
sub all_boxes {
    my (%boxes, %seen);
    my @frontier = ("." x 9);
    while (@frontier) {
        my $board = pop @frontier;
        next if $seen{$board}++;
        if (needs_box($board)) {
            my ($label) = label_of($board);
            $boxes{$label} //= [map { my $c = $_; ($c) x (1 + int rand 4) } empty_squares($label)];
        }
        if (!is_over($board)) {
            my $mark = marks($board, "X") == marks($board, "O") ? "X" : "O";
            push @frontier, map { play($board, $_, $mark) } empty_squares($board);
        }
    }
    die "not 304 boxes\n" unless keys %boxes == 304;
    return \%boxes;
}

sub print_board {
    my ($board) = @_;
    print join(" ", split //, substr($board, $_ * 3, 3)), "\n" for 0 .. 2;
}

sub print_boxes {
    my ($boxes) = @_;
    my @labels = sort { marks($b, ".") <=> marks($a, ".") || $a cmp $b } keys %$boxes;
    print join(" ", $_, sort @{ $boxes->{$_} }), "\n" for @labels;
}

# The next input line, after flushing everything printed so far.
sub read_line {
    STDOUT->flush;
    my $line = <STDIN>;
    die "menace: input ended in the middle of a session\n" unless defined $line;
    return $line;
}

sub read_move {
    my ($board) = @_;
    while (1) {
        (my $text = uc read_line()) =~ s/^\s+|\s+$//g;
        if ($text =~ /^([LMR])([LMR])$/) {
            my $square = index($LETTERS, $1) * 3 + index($LETTERS, $2);
            return $square if substr($board, $square, 1) eq ".";
        }
        print STDERR "not a move onto an empty square: $text\n";
    }
}

# MENACE's square: a bead drawn from the board's box, set aside in @$drawn.
sub menace_move {
    my ($board, $boxes, $drawn) = @_;
    return index($board, ".") if marks($board, ".") == 1;
    my ($label, $source) = label_of($board);
    my $beads = $boxes->{$label};
    my ($bead) = splice @$beads, int rand @$beads, 1;
    if (!@$beads) {
        my @free = empty_squares($label);
        push @$beads, map { $free[int rand @free] } 1 .. 3;
    }
    push @$drawn, [$label, $bead];
    return $source->[$bead];
}

sub learn {
    my ($boxes, $drawn, $result) = @_;
    my $copies = $result eq "X" ? 2 : $result eq "" ? 1 : 0;
    push @{ $boxes->{ $_->[0] } }, ($_->[1]) x $copies for @$drawn;
}

sub play_game {
    my ($boxes) = @_;
    print "new game\n";
    my $board = "." x 9;
    my @drawn;
    while (1) {
        $board = play($board, menace_move($board, $boxes, \@drawn), "X");
        print_board($board);
        last if is_over($board);
        $board = play($board, read_move($board), "O");
        print_board($board);
        last if is_over($board);
    }
    learn($boxes, \@drawn, winner($board));
    print_boxes($boxes);
}

my $games = int read_line();
my $boxes = all_boxes();
play_game($boxes) for 1 .. $games;
