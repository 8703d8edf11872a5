// argparse.hpp: a small "--name value" command-line reader for hipwb's fieldwork samples.
//
// Options are declared with a default and a help text, then read back typed:
//     field::Args args("tiled_matmul");
//     args.option<int>("n", 256, "rows of A");
//     args.parse(argc, argv);
//     const int n = args.get<int>("n");
#ifndef HIPWB_FIELDWORK_ARGPARSE_HPP
#define HIPWB_FIELDWORK_ARGPARSE_HPP

#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace field
{

class Args
{
public:
    explicit Args(std::string program) : program_(std::move(program)) {}

    template<typename T>
    void option(const std::string& name, const T& fallback, std::string help)
    {
        std::ostringstream text;
        text << std::boolalpha << fallback;
        entries_[name] = Entry{text.str(), std::move(help)};
    }

    void parse(int argc, char** argv)
    {
        for(int i = 1; i < argc; ++i)
        {
            std::string word = argv[i];
            if(word == "-h" || word == "--help")
            {
                usage(std::cout);
                std::exit(0);
            }
            if(word.rfind("--", 0) != 0 || i + 1 >= argc)
                fail("expected --name value, got '" + word + "'");
            auto found = entries_.find(word.substr(2));
            if(found == entries_.end())
                fail("unknown option '" + word + "'");
            found->second.value = argv[++i];
        }
    }

    template<typename T>
    T get(const std::string& name) const
    {
        auto found = entries_.find(name);
        if(found == entries_.end())
            throw std::out_of_range("no option named " + name);
        std::istringstream in(found->second.value);
        T value{};
        in >> std::boolalpha >> value;
        if(in.fail())
            throw std::invalid_argument("--" + name + ": cannot read '" + found->second.value
                                        + "'");
        return value;
    }

    void usage(std::ostream& out) const
    {
        out << "usage: " << program_ << " [options]\n";
        for(const auto& [name, e] : entries_)
            out << "  --" << name << " (default " << e.value << ")  " << e.help << '\n';
    }

private:
    struct Entry
    {
        std::string value;
        std::string help;
    };

    [[noreturn]] void fail(const std::string& why) const
    {
        std::cerr << program_ << ": " << why << '\n';
        usage(std::cerr);
        std::exit(1);
    }

    std::string                  program_;
    std::map<std::string, Entry> entries_;
};

} // namespace field

#endif // HIPWB_FIELDWORK_ARGPARSE_HPP
